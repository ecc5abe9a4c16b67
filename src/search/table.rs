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
    /// The side to move (the value is from its point of view). A game whose hash leaves
    /// out whose turn it is must not have one side's value read as the other's.
    pub max_side: bool,
}

/// The `best` of an entry that has none.
pub(crate) const NO_MOVE: i64 = i64::MIN;

/// A transposition table: fixed size, power-of-two buckets indexed by the hash, each one
/// cache line holding two entries: one kept for the deepest search (so that the costly
/// results near the root survive) and one always replaced. Entries are four words, all
/// zero when empty, so that a large table costs nothing until used (the allocator hands
/// out zeroed pages lazily). A table can serve many searches one after another: each
/// search sees only its own entries, so reusing one saves allocating and touching fresh
/// memory for every search.
pub struct Table {
    buckets: Vec<Bucket>,
    /// 64 minus log2 of the bucket count: the index is the top bits of the mixed hash.
    shift: u32,
    /// The current search's number; entries of other searches are ignored.
    generation: u64,
}

/// Two entries in one cache line: `[deepest, newest]`.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Bucket([[u64; 4]; 2]);

const GENERATION_BITS: u32 = 29;
/// Depths are below the engine's ply limit (2^20), so 31 bits hold them; bit 31 of the
/// same word holds the side to move.
const DEPTH_MASK: u32 = (1 << 31) - 1;

impl Table {
    /// The fewest bytes a table can have: one bucket of two entries.
    pub(crate) const MIN_BYTES: usize = size_of::<Bucket>();

    /// A table using at most `bytes` bytes (64 per bucket of two entries), or `None` if
    /// that holds no bucket or the memory cannot be had (a search then runs without a
    /// table: slower, same answer).
    pub fn new(bytes: usize) -> Option<Table> {
        let count = bytes / size_of::<Bucket>();
        if count == 0 {
            return None;
        }
        let bits = count.ilog2();
        Some(Table {
            buckets: zeroed_buckets(1usize << bits)?,
            shift: 64 - bits,
            generation: 1,
        })
    }

    /// Writes every bucket once, so that the memory is mapped now rather than page by
    /// page during the searches (a table meant for many searches wants this).
    pub fn prefault(&mut self) {
        self.buckets.fill(Bucket([[0; 4]; 2]));
    }

    /// Starts a new search: the entries of earlier ones no longer count.
    pub(crate) fn new_search(&mut self) {
        self.generation += 1;
        if self.generation >= 1 << GENERATION_BITS {
            self.prefault();
            self.generation = 1;
        }
    }

    /// The bucket of a hash. Games' hashes are often poorly mixed (a bitboard's low bits
    /// cover one corner), so the index is taken from a Fibonacci multiple's top bits.
    fn bucket(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .checked_shr(self.shift)
            .unwrap_or(0)) as usize
    }

    /// Asks the processor to bring a key's bucket into the cache, without waiting for it.
    pub(crate) fn prefetch(&self, key: u64) {
        let bucket: *const Bucket = &self.buckets[self.bucket(key)];
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch is only a hint: it never faults and changes no state that
        // the program can observe, and `bucket` points into the table anyway.
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(bucket.cast());
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = bucket;
    }

    /// The entry of this search for `key` with `max_side` to move, if there is one.
    pub(crate) fn probe(&self, key: u64, max_side: bool) -> Option<Entry> {
        let bucket = &self.buckets[self.bucket(key)].0;
        bucket
            .iter()
            .find_map(|slot| self.decode(key, max_side, slot))
    }

    /// The entry in `slot` if it is this search's and holds `key` with `max_side` to move.
    fn decode(
        &self,
        key: u64,
        max_side: bool,
        &[k, value, best, meta]: &[u64; 4],
    ) -> Option<Entry> {
        if k != key || generation_of(meta) != self.generation || (meta >> 31 & 1 == 1) != max_side {
            return None;
        }
        let bound = match (meta >> 32) & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        Some(Entry {
            key,
            value: value as i64,
            best: best as i64,
            depth: depth_of(meta),
            bound,
            proven: meta >> 34 & 1 == 1,
            max_side,
        })
    }

    pub(crate) fn store(&mut self, e: Entry) {
        let bound: u64 = match e.bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        let slot = [
            e.key,
            e.value as u64,
            e.best as u64,
            self.generation << 35
                | (e.proven as u64) << 34
                | bound << 32
                | (e.max_side as u64) << 31
                | (e.depth & DEPTH_MASK) as u64,
        ];
        let generation = self.generation;
        let i = self.bucket(e.key);
        let [deepest, newest] = &mut self.buckets[i].0;
        // The deepest entry is replaced by the same position, by a search at least as
        // deep, or once it is stale; everything else goes to the newest entry.
        if deepest[0] == e.key
            || generation_of(deepest[3]) != generation
            || e.depth >= depth_of(deepest[3])
        {
            if newest[0] == e.key {
                *newest = [0; 4]; // one entry per position
            }
            *deepest = slot;
        } else {
            *newest = slot;
        }
    }
}

/// An entry's fourth word holds, from the top: the generation, proven, the bound, the
/// side to move and the depth.
fn generation_of(meta: u64) -> u64 {
    meta >> 35
}

fn depth_of(meta: u64) -> u32 {
    meta as u32 & DEPTH_MASK
}

/// `count` zeroed buckets, or `None` if the allocator cannot give them.
/// (`vec![...; n]` would abort the caller's process instead.) The memory comes zeroed
/// from the allocator, so that pages are mapped only when a search first touches them.
fn zeroed_buckets(count: usize) -> Option<Vec<Bucket>> {
    let layout = std::alloc::Layout::array::<Bucket>(count).ok()?;
    if layout.size() == 0 {
        return Some(Vec::new());
    }
    // SAFETY: the layout's size is not zero (checked).
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<Bucket>();
    if ptr.is_null() {
        return None;
    }
    // SAFETY: `ptr` was just allocated by the global allocator with the layout of `count`
    // buckets (their alignment and `count * 64` bytes), as `from_raw_parts` requires; all
    // `count` values are initialised, since all-zero bytes are a valid `Bucket` (plain
    // integers); and nothing else owns the allocation.
    Some(unsafe { Vec::from_raw_parts(ptr, count, count) })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(key: u64, depth: u32) -> Entry {
        Entry {
            key,
            value: -(key as i64) * 1000,
            best: key as i64 + 1,
            depth,
            bound: Bound::Lower,
            proven: depth % 2 == 0,
            max_side: true,
        }
    }

    #[test]
    fn a_bucket_keeps_the_deepest_entry_and_the_newest() {
        let mut t = Table::new(64).unwrap(); // one bucket: every key collides
        let found = |t: &Table, key| {
            t.probe(key, true)
                .map(|e| (e.depth, e.value, e.best, e.proven))
        };
        t.store(entry(1, 10));
        t.store(entry(2, 3));
        assert_eq!(found(&t, 1), Some((10, -1000, 2, true)));
        assert_eq!(found(&t, 2), Some((3, -2000, 3, false)));
        t.store(entry(3, 2)); // shallower: replaces the newest
        assert_eq!(
            (found(&t, 1).is_some(), found(&t, 2), found(&t, 3).is_some()),
            (true, None, true)
        );
        t.store(entry(4, 12)); // deeper: replaces the deepest
        assert_eq!((found(&t, 1), found(&t, 4).map(|e| e.0)), (None, Some(12)));
        t.store(entry(3, 20)); // the same position moves up, and is there once
        assert_eq!(found(&t, 3).map(|e| e.0), Some(20));
        assert_eq!(t.buckets[0].0.iter().filter(|s| s[0] == 3).count(), 1);
        t.new_search();
        assert_eq!((found(&t, 3), found(&t, 4)), (None, None));
        // An entry is for the side it was stored for only.
        t.store(entry(5, 1));
        assert!(t.probe(5, true).is_some() && t.probe(5, false).is_none());
        assert!(Table::new(63).is_none());
    }
}
