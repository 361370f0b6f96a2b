//! A scripted chain (docs/design.md §15 tests): a tree of blocks with one
//! canonical branch, extended, reorganised and flipped back on demand.

use super::*;

// ---------- a scripted chain ----------

#[derive(Clone, Debug)]
pub struct FakeLog {
    pub address: [u8; 20],
    pub topics: Vec<[u8; 32]>,
    pub data: Vec<u8>,
    pub tx: [u8; 32],
}

#[derive(Clone, Debug)]
pub struct Block {
    pub number: u64,
    pub hash: [u8; 32],
    pub parent: [u8; 32],
    pub logs: Vec<FakeLog>,
}

/// A tree of blocks with one canonical branch; every block ever made stays
/// readable by hash (as a node keeps side blocks).
pub struct Chain {
    pub blocks: HashMap<[u8; 32], Block>,
    pub canonical: Vec<[u8; 32]>,
    /// Tips of abandoned forks (for flip-flops).
    pub old_tips: Vec<[u8; 32]>,
    pub made: u64,
    /// The highest tip the chain ever had: a reader may have taken
    /// everything `finality` below it as final.
    pub high_water: u64,
    /// No fork below this block (the reader's start: below it, a fork is
    /// deeper than anything it read).
    pub min_ancestor: u64,
}

impl Chain {
    /// Blocks 0..=tip with up to 3 random logs each.
    pub fn new(rng: &mut Rng, tip: u64) -> Self {
        let mut chain = Chain::empty();
        chain.extend(rng, tip + 1, 3);
        chain
    }

    pub fn empty() -> Self {
        Chain {
            blocks: HashMap::new(),
            canonical: Vec::new(),
            old_tips: Vec::new(),
            made: 0,
            high_water: 0,
            min_ancestor: 0,
        }
    }

    pub fn tip(&self) -> u64 {
        self.canonical.len() as u64 - 1
    }

    pub fn make_logs(&mut self, rng: &mut Rng, max_logs: u64) -> Vec<FakeLog> {
        let count = rng.below(max_logs + 1);
        (0..count)
            .map(|_| {
                self.made += 1;
                let tx = word(self.made, 0x77);
                match rng.below(10) {
                    // Not matched: another contract, another event, or an ERC-721 shape.
                    0 => FakeLog {
                        address: OTHER_TOKEN,
                        topics: vec![transfer_topic(), padded([1; 20]), padded([2; 20])],
                        data: word(5, 0).to_vec(),
                        tx,
                    },
                    1 => FakeLog {
                        address: TOKEN,
                        topics: vec![word(99, 0x55)],
                        data: Vec::new(),
                        tx,
                    },
                    2 => FakeLog {
                        address: TOKEN,
                        topics: vec![transfer_topic(), padded([1; 20]), padded([2; 20]), word(7, 0)],
                        data: Vec::new(),
                        tx,
                    },
                    _ => FakeLog {
                        address: TOKEN,
                        topics: vec![transfer_topic(), padded([3; 20]), padded([4; 20])],
                        data: word(self.made, 0).to_vec(),
                        tx,
                    },
                }
            })
            .collect()
    }

    pub fn push(&mut self, rng: &mut Rng, max_logs: u64) {
        self.made += 1;
        let number = self.canonical.len() as u64;
        let parent = self.canonical.last().copied().unwrap_or([0; 32]);
        let hash = word(self.made, 0xB0);
        let logs = self.make_logs(rng, max_logs);
        self.blocks.insert(
            hash,
            Block {
                number,
                hash,
                parent,
                logs,
            },
        );
        self.canonical.push(hash);
        self.high_water = self.high_water.max(number);
    }

    pub fn extend(&mut self, rng: &mut Rng, blocks: u64, max_logs: u64) {
        for _ in 0..blocks {
            self.push(rng, max_logs);
        }
    }

    /// Replaces the last `depth` blocks by `depth + extra` new ones.
    pub fn reorg(&mut self, rng: &mut Rng, depth: u64, extra: u64, max_logs: u64) {
        let depth = depth.min(self.tip());
        self.reorg_unchecked(rng, depth, extra, max_logs);
    }

    /// A reorg whose common ancestor stays within `within` blocks of the
    /// highest tip ever seen (what a reader with that finality depth can undo).
    pub fn reorg_within(&mut self, rng: &mut Rng, depth: u64, extra: u64, max_logs: u64, within: u64) {
        let lowest_ancestor = self.high_water.saturating_sub(within).max(self.min_ancestor);
        let depth = depth.min(self.tip().saturating_sub(lowest_ancestor));
        if depth > 0 {
            self.reorg_unchecked(rng, depth, extra, max_logs);
        }
    }

    pub fn reorg_unchecked(&mut self, rng: &mut Rng, depth: u64, extra: u64, max_logs: u64) {
        if let Some(tip) = self.canonical.last() {
            self.old_tips.push(*tip);
        }
        let keep = self.canonical.len() - depth as usize;
        self.canonical.truncate(keep);
        self.extend(rng, depth + extra, max_logs);
    }

    /// Makes an abandoned fork canonical again (a reorg undone).
    pub fn flip_back(&mut self, within: u64) -> bool {
        let Some(old) = self.old_tips.pop() else {
            return false;
        };
        let mut branch = Vec::new();
        let mut cursor = old;
        while let Some(block) = self.blocks.get(&cursor) {
            branch.push(block.hash);
            if self.canonical.get(block.number as usize) == Some(&block.hash) {
                break;
            }
            cursor = block.parent;
        }
        branch.reverse();
        let Some(first) = branch.first().and_then(|hash| self.blocks.get(hash)) else {
            return false;
        };
        let fork_number = first.number;
        // The common ancestor (fork_number - 1) stays within reach.
        if fork_number == 0 || fork_number - 1 < self.high_water.saturating_sub(within).max(self.min_ancestor) {
            return false;
        }
        if let Some(tip) = self.canonical.last() {
            self.old_tips.push(*tip);
        }
        self.canonical.truncate(fork_number as usize);
        self.canonical.extend(branch);
        true
    }

    pub fn by_number(&self, number: u64) -> Option<&Block> {
        self.canonical
            .get(number as usize)
            .and_then(|hash| self.blocks.get(hash))
    }

    /// `(blockHash, logIndex)` of every canonical log the test filter matches.
    pub fn matching(&self, from: u64) -> Vec<(String, u64)> {
        let mut out = Vec::new();
        for number in from..=self.tip() {
            let block = self.by_number(number).unwrap();
            for (index, log) in block.logs.iter().enumerate() {
                if log.address == TOKEN && log.topics.len() == 3 && log.topics[0] == transfer_topic() {
                    out.push((hex(&block.hash), index as u64));
                }
            }
        }
        out
    }
}

/// A matched Transfer log.
pub fn transfer(n: u64) -> FakeLog {
    FakeLog {
        address: TOKEN,
        topics: vec![transfer_topic(), padded([3; 20]), padded([4; 20])],
        data: word(n, 0).to_vec(),
        tx: word(n, 0x77),
    }
}

impl Chain {
    /// Sets the logs of canonical block `number`.
    pub fn set_logs(&mut self, number: u64, logs: Vec<FakeLog>) {
        let hash = self.canonical[number as usize];
        self.blocks.get_mut(&hash).unwrap().logs = logs;
    }
}

pub fn transfer_topic() -> [u8; 32] {
    let mut bytes = [0u8; 32];
    let digits = TRANSFER_TOPIC.trim_start_matches("0x");
    for (i, byte) in bytes.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&digits[i * 2..i * 2 + 2], 16).unwrap();
    }
    bytes
}
