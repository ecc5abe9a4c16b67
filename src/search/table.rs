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

/// A transposition table: fixed size, always replace, power-of-two slots indexed by the
/// hash. Slots are four words, all zero when empty, so that a large table costs nothing
/// until used (the allocator hands out zeroed pages lazily). A table can serve many
/// searches one after another: each search sees only its own entries, so reusing one
/// saves allocating and touching fresh memory for every search.
pub struct Table {
    slots: Vec<[u64; 4]>,
    /// 64 minus log2 of the slot count: the index is the top bits of the mixed hash.
    shift: u32,
    /// The current search's number; entries of other searches are ignored.
    generation: u64,
}

const GENERATION_BITS: u32 = 29;

impl Table {
    /// A table using at most `bytes` bytes, or `None` if that holds no slot or the memory
    /// cannot be had (a search then runs without a table: slower, same answer).
    pub fn new(bytes: usize) -> Option<Table> {
        let count = bytes / size_of::<[u64; 4]>();
        if count == 0 {
            return None;
        }
        let bits = count.ilog2();
        Some(Table {
            slots: zeroed_slots(1usize << bits)?,
            shift: 64 - bits,
            generation: 1,
        })
    }

    /// Writes every slot once, so that the memory is mapped now rather than page by page
    /// during the searches (a table meant for many searches wants this).
    pub fn prefault(&mut self) {
        self.slots.fill([0; 4]);
    }

    /// Starts a new search: the entries of earlier ones no longer count.
    pub(crate) fn new_search(&mut self) {
        self.generation += 1;
        if self.generation >= 1 << GENERATION_BITS {
            self.slots.iter_mut().for_each(|s| *s = [0; 4]);
            self.generation = 1;
        }
    }

    /// The slot of a hash. Games' hashes are often poorly mixed (a bitboard's low bits
    /// cover one corner), so the index is taken from a Fibonacci multiple's top bits.
    fn slot(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .checked_shr(self.shift)
            .unwrap_or(0)) as usize
    }

    /// Asks the processor to bring a key's slot into the cache, without waiting for it.
    pub(crate) fn prefetch(&self, key: u64) {
        let slot: *const [u64; 4] = &self.slots[self.slot(key)];
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch is only a hint: it never faults and changes no state that
        // the program can observe, and `slot` points into the table anyway.
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(slot.cast());
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = slot;
    }

    pub(crate) fn probe(&self, key: u64) -> Option<Entry> {
        let [k, value, best, meta] = self.slots[self.slot(key)];
        let bound = match (meta >> 32) & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        let proven = meta >> 34 & 1 == 1;
        (k == key && meta >> 35 == self.generation).then_some(Entry {
            key,
            value: value as i64,
            best: best as i64,
            depth: meta as u32,
            bound,
            proven,
        })
    }

    pub(crate) fn store(&mut self, e: Entry) {
        let bound: u64 = match e.bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        let i = self.slot(e.key);
        self.slots[i] = [
            e.key,
            e.value as u64,
            e.best as u64,
            self.generation << 35 | (e.proven as u64) << 34 | bound << 32 | e.depth as u64,
        ];
    }
}

/// `count` zeroed slots, or `None` if the allocator cannot give them. (`vec![[0; 4]; n]`
/// would abort the caller's process instead.) The memory comes zeroed from the allocator,
/// so that pages are mapped only when a search first touches them.
fn zeroed_slots(count: usize) -> Option<Vec<[u64; 4]>> {
    let layout = std::alloc::Layout::array::<[u64; 4]>(count).ok()?;
    if layout.size() == 0 {
        return Some(Vec::new());
    }
    // SAFETY: the layout's size is not zero (checked).
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<[u64; 4]>();
    if ptr.is_null() {
        return None;
    }
    // SAFETY: `ptr` was just allocated by the global allocator with the layout of `count`
    // values of `[u64; 4]` (its alignment and `count * 32` bytes), as `from_raw_parts`
    // requires; all `count` values are initialised, since all-zero bytes are a valid
    // `[u64; 4]`; and nothing else owns the allocation.
    Some(unsafe { Vec::from_raw_parts(ptr, count, count) })
}
