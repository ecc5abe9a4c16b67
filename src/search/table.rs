//! The transposition table: positions by their 64-bit hash, each with a value and whether
//! it is exact, a lower or an upper bound, the depth it was searched to, and a best move.

/// How a stored value relates to the position's true value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Bound {
    Exact,
    Lower,
    Upper,
}

/// A stored search of a position.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Entry {
    pub key: u64,
    /// Relative to the node (see `value::to_table`).
    pub value: i64,
    /// The best move found, or `NO_MOVE`.
    pub best: i64,
    /// Plies searched below the node.
    pub depth: u32,
    pub bound: Bound,
    /// Whether every line of the search reached a final position.
    pub proven: bool,
}

/// The `best` of an entry that has none.
pub(crate) const NO_MOVE: i64 = i64::MIN;

/// A fixed-size, always-replace table (power-of-two slots, indexed by the hash). Slots
/// are four words, all zero when empty, so that a large table costs nothing until used
/// (the allocator hands out zeroed pages lazily).
pub(crate) struct Table {
    slots: Vec<[u64; 4]>,
    mask: usize,
}

impl Table {
    /// A table using at most `bytes` bytes, or `None` if that holds no slot.
    pub fn with_bytes(bytes: usize) -> Option<Table> {
        let count = bytes / size_of::<[u64; 4]>();
        if count == 0 {
            return None;
        }
        let count = 1usize << count.ilog2();
        Some(Table {
            slots: vec![[0; 4]; count],
            mask: count - 1,
        })
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        let [k, value, best, meta] = self.slots[key as usize & self.mask];
        let bound = match meta >> 32 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        let proven = meta >> 34 & 1 == 1;
        (k == key).then_some(Entry {
            key,
            value: value as i64,
            best: best as i64,
            depth: meta as u32,
            bound,
            proven,
        })
    }

    pub fn store(&mut self, e: Entry) {
        let bound: u64 = match e.bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        self.slots[e.key as usize & self.mask] = [
            e.key,
            e.value as u64,
            e.best as u64,
            (e.proven as u64) << 34 | bound << 32 | e.depth as u64,
        ];
    }
}
