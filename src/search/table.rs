//! The transposition table: positions by their 64-bit hash, each with a value and whether
//! it is exact, a lower or an upper bound, the depth it was searched to, and a best move.
//! Several search threads share one table without locks: an entry's key word is stored
//! XORed with a hash of its other words (lockless hashing, after Hyatt and Mann 2002),
//! so that an entry torn by two threads writing at once fails the key check and is never
//! used. The check is not the plain XOR of the words: that is linear, and two entries
//! whose best move and depth XOR alike would pass it when mixed.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use super::memory::{Zeroable, Zeroed};

/// How a stored value relates to the position's true value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Bound {
    Exact,
    Lower,
    Upper,
}

impl Bound {
    /// What a fail-soft search's value `v` within `(alpha, beta)` says of the true value.
    pub(crate) fn of<T: PartialOrd>(v: T, alpha: T, beta: T) -> Bound {
        if v <= alpha {
            Bound::Upper
        } else if v >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        }
    }
}

/// A stored search of a position.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Entry {
    pub key: u64,
    /// Relative to the node (see `value::to_table`).
    pub value: i64,
    /// The best move found, or `NO_MOVE`.
    pub best: i64,
    /// Plies searched below the node; for a proven entry, the height of the subtree that
    /// proved it (the most plies to the end of any line searched).
    pub depth: u32,
    pub bound: Bound,
    /// Whether every line of the search reached a final position.
    pub proven: bool,
    /// The side to move (the value is from its point of view). A game whose hash leaves
    /// out whose turn it is must not have one side's value read as the other's.
    pub max_side: bool,
    /// Whether `value` holds an `f64`'s bits (an expected value, from a chance search).
    pub expected: bool,
}

impl Entry {
    /// Whether the entry answers for a search `depth` plies deep: only a search of the
    /// same depth has the same value (a deeper one may differ), unless every line of it
    /// ended: a proven entry holds its subtree's height, good for any depth at least that.
    pub(crate) fn fits(&self, depth: u32) -> bool {
        if self.proven {
            self.depth <= depth
        } else {
            self.depth == depth
        }
    }
}

/// A transposition table: fixed size, power-of-two buckets indexed by the hash, each one
/// cache line holding two entries: one kept for the deepest search (so that the costly
/// results near the root survive) and one always replaced. Entries are four words, all
/// zero when empty. A table can serve many searches one after another, one at a time (a
/// search may run on many threads): it keeps its entries from one search to the next, so
/// that a program playing a game finds the previous move's work, and the entries of
/// earlier searches are the first to be replaced. [`Table::clear`] forgets them all, in
/// constant time: do that before searching another game with the same table.
pub struct Table {
    /// Lent to the helper threads of a parallel search.
    buckets: Zeroed<Bucket>,
    /// 64 minus log2 of the bucket count: the index is the top bits of the mixed hash.
    shift: u32,
    /// The table's epoch: entries of earlier epochs (before a `clear`) are ignored.
    generation: u64,
    /// The current search's number (modulo 2^8): entries of earlier searches are still
    /// used, but replaced first.
    age: u64,
    /// Whether `onto_huge_pages` has run (by `prefault` or `settle`): it moves the
    /// buckets once.
    huge: bool,
}

/// Two entries in one cache line: `[deepest, newest]`. Each entry's words are
/// `[key ^ check(value, best, meta), value, best, meta]`.
#[repr(C, align(64))]
struct Bucket([[AtomicU64; 4]; 2]);

// SAFETY: a bucket is atomic integers only, and all-zero atomics are zeros: an empty bucket.
unsafe impl Zeroable for Bucket {}

const GENERATION_BITS: u32 = 29;
/// Depths are at most the engine's ply limit (2^20), so 21 bits hold them.
const DEPTH_MASK: u32 = (1 << 21) - 1;
/// Bit 21 of the meta word: the value is an expected value (an `f64`'s bits, from a chance
/// search), not an integer one. The two kinds never answer for each other.
const EXPECTED_BIT: u32 = 21;
/// Bits 22 to 29: the search's age.
const AGE_SHIFT: u32 = 22;
const AGE_MASK: u64 = 0xff;

impl Table {
    /// The fewest bytes a table can have: one bucket of two entries.
    #[cfg_attr(all(target_family = "wasm", target_os = "unknown"), allow(dead_code))] // the C face's
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
            buckets: Zeroed::new(1usize << bits)?,
            shift: 64 - bits,
            generation: 1,
            age: 0,
            huge: false,
        })
    }

    /// Empties the table and maps all its memory now rather than page by page during the
    /// searches: a table meant for many searches wants this. A table of at least 2 MiB
    /// moves (once) to fresh memory on huge pages where the system gives them (see `memory`).
    pub fn prefault(&mut self) {
        self.onto_huge_pages();
        for bucket in self.buckets.iter() {
            for word in bucket.0.iter().flatten() {
                word.store(0, Relaxed);
            }
        }
    }

    /// Starts a new search: the entries of earlier ones stay and are used, and are the
    /// first to be replaced.
    pub(crate) fn new_search(&mut self) {
        self.age = (self.age + 1) & AGE_MASK;
    }

    /// Forgets every entry, in constant time (a new epoch; every 2^29 clears the memory
    /// is zeroed again): for a table about to search another game, or a benchmark that
    /// wants each search to start afresh.
    pub fn clear(&mut self) {
        self.generation += 1;
        if self.generation >= 1 << GENERATION_BITS {
            self.prefault();
            self.generation = 1;
        }
    }

    /// Forgets every entry, as `clear`, for a table that has served searches long enough
    /// (the library's kept table, see `kept`): the first time, it moves to fresh memory on
    /// huge pages where the system gives them, as `prefault` does but without touching it
    /// (each huge page is zeroed when a search first writes it, once), so that its probes
    /// stop missing the TLB. A table under 2 MiB stays where it is.
    pub(crate) fn settle(&mut self) {
        self.clear();
        self.onto_huge_pages();
    }

    /// The first time only, moves the buckets to fresh (empty) memory advised onto huge
    /// pages, where the system gives them and the table has at least 2 MiB.
    fn onto_huge_pages(&mut self) {
        if !self.huge {
            if let Some(fresh) = Zeroed::huge(self.buckets.len()) {
                self.buckets = fresh;
            }
            self.huge = true;
        }
    }

    /// Where the table's memory starts: for tests that tell one table from another.
    #[cfg(test)]
    pub(crate) fn base(&self) -> *const u8 {
        self.buckets.as_ptr().cast()
    }

    /// The bucket of a hash. Games' hashes are often poorly mixed (a bitboard's low bits
    /// cover one corner), so the index is taken from a Fibonacci multiple's top bits.
    #[inline(always)]
    fn bucket(&self, key: u64) -> &[[AtomicU64; 4]; 2] {
        let i = key
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .checked_shr(self.shift)
            .unwrap_or(0);
        &self.buckets[i as usize].0
    }

    /// Asks the processor to bring a key's bucket into the cache, without waiting for it.
    #[inline(always)]
    pub(crate) fn prefetch(&self, key: u64, max_side: bool) {
        let bucket: *const [[AtomicU64; 4]; 2] = self.bucket(sided(key, max_side));
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch is only a hint: it never faults and changes no state that
        // the program can observe, and `bucket` points into the table anyway.
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(bucket.cast());
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = bucket;
    }

    /// The entry for `key` with `max_side` to move and a value of the kind asked for
    /// (`expected`: a chance search's), if there is one.
    #[inline(always)]
    pub(crate) fn probe(&self, key: u64, max_side: bool, expected: bool) -> Option<Entry> {
        let slot_key = sided(key, max_side);
        self.bucket(slot_key)
            .iter()
            .find_map(|slot| self.decode(slot_key, max_side, expected, load(slot)))
            .map(|e| Entry { key, ..e })
    }

    /// The entry in `words` if it is whole, of this epoch, and holds `key` with
    /// `max_side` to move and a value of the kind asked for.
    #[inline(always)]
    fn decode(
        &self,
        key: u64,
        max_side: bool,
        expected: bool,
        [k, value, best, meta]: [u64; 4],
    ) -> Option<Entry> {
        if k ^ check(value, best, meta) != key
            || generation_of(meta) != self.generation
            || (meta >> 31 & 1 == 1) != max_side
            || (meta >> EXPECTED_BIT & 1 == 1) != expected
        {
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
            expected,
        })
    }

    /// Stores an entry. Another thread may store into the same bucket at the same time:
    /// the worst outcome is a lost entry or a torn one, which `probe` rejects.
    #[inline(always)]
    pub(crate) fn store(&self, e: Entry) {
        let bound: u64 = match e.bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        let meta = self.generation << 35
            | (e.proven as u64) << 34
            | bound << 32
            | (e.max_side as u64) << 31
            | self.age << AGE_SHIFT
            | (e.expected as u64) << EXPECTED_BIT
            | (e.depth.min(DEPTH_MASK)) as u64;
        let (value, best) = (e.value as u64, e.best as u64);
        let key = sided(e.key, e.max_side);
        let slot = [key ^ check(value, best, meta), value, best, meta];
        let [deepest, newest] = self.bucket(key);
        let [dk, dv, db, dm] = load(deepest);
        let deepest_key = dk ^ check(dv, db, dm);
        // The deepest entry is replaced by the same position, by a search at least as
        // deep, or once it is stale (an earlier search's, or an earlier epoch's);
        // everything else goes to the newest entry.
        let stale = generation_of(dm) != self.generation || age_of(dm) != self.age;
        if deepest_key == key || stale || e.depth >= depth_of(dm) {
            let [nk, nv, nb, nm] = load(newest);
            if nk ^ check(nv, nb, nm) == key {
                write(newest, [0; 4]); // one entry per position
            }
            write(deepest, slot);
        } else {
            write(newest, slot);
        }
    }
}

/// The key a position is kept under: its hash for MAX to move, and the hash with its bits
/// mixed for MIN. A game whose hash leaves out whose turn it is (Nim's piles, reached
/// after an odd or an even number of moves) then keeps one entry for each side in
/// different buckets, where under one key the two sides' entries replaced each other:
/// Nim 3-4-5 took 10,712 nodes with a table that could hold every position, 12x a
/// textbook alpha-beta's (issue 49).
#[inline(always)]
fn sided(key: u64, max_side: bool) -> u64 {
    if max_side {
        key
    } else {
        key ^ 0xD6E8_FEB8_6659_FD93
    }
}

/// The key word's check of an entry's other words: each word times its own odd constant,
/// then XORed. The products carry, so unlike a plain XOR the check is not linear in the
/// words' bits: a torn mix of two entries passes only if their products happen to XOR
/// alike, about as likely as two positions sharing a 64-bit hash. The three products are
/// independent, so the check costs a few cycles on the probe's path.
#[inline(always)]
fn check(value: u64, best: u64, meta: u64) -> u64 {
    value.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ best.wrapping_mul(0xBF58_476D_1CE4_E5B9)
        ^ meta.wrapping_mul(0x94D0_49BB_1331_11EB)
}

#[inline(always)]
fn load(slot: &[AtomicU64; 4]) -> [u64; 4] {
    slot.each_ref().map(|w| w.load(Relaxed))
}

#[inline(always)]
fn write(slot: &[AtomicU64; 4], words: [u64; 4]) {
    for (w, v) in slot.iter().zip(words) {
        w.store(v, Relaxed);
    }
}

/// An entry's fourth word holds, from the top: the epoch, proven, the bound, the side to
/// move, the age, the kind of value and the depth.
fn generation_of(meta: u64) -> u64 {
    meta >> 35
}

fn age_of(meta: u64) -> u64 {
    meta >> AGE_SHIFT & AGE_MASK
}

fn depth_of(meta: u64) -> u32 {
    meta as u32 & DEPTH_MASK
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(key: u64, depth: u32) -> Entry {
        Entry {
            key,
            value: (key as i64).wrapping_mul(-1000),
            best: key as i64 + 1,
            depth,
            bound: Bound::Lower,
            proven: depth % 2 == 0,
            max_side: true,
            expected: false,
        }
    }

    fn keys_in_bucket(t: &Table, key: u64) -> usize {
        t.bucket(0)
            .iter()
            .filter(|s| {
                let [k, v, b, m] = load(s);
                k ^ check(v, b, m) == key
            })
            .count()
    }

    #[test]
    fn a_bucket_keeps_the_deepest_entry_and_the_newest() {
        let mut t = Table::new(64).unwrap(); // one bucket: every key collides
        let found = |t: &Table, key| {
            t.probe(key, true, false)
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
        assert_eq!(keys_in_bucket(&t, 3), 1);
        // A new search keeps the entries, but an earlier search's deepest entry gives way
        // to any entry of the new one.
        t.new_search();
        assert_eq!(found(&t, 3).map(|e| e.0), Some(20));
        t.store(entry(6, 1));
        assert_eq!((found(&t, 3), found(&t, 6).map(|e| e.0)), (None, Some(1)));
        t.clear();
        assert_eq!((found(&t, 4), found(&t, 6)), (None, None));
        // An entry is for the side it was stored for only, and for its kind of value.
        t.store(entry(5, 1));
        assert!(t.probe(5, true, false).is_some() && t.probe(5, false, false).is_none());
        assert!(t.probe(5, true, true).is_none());
        assert!(Table::new(63).is_none());
    }

    /// A table that settles forgets its entries every time; one of 2 MiB or more moves
    /// to new memory the first time only (on Linux), a smaller one never.
    #[test]
    #[cfg_attr(
        miri,
        ignore = "26 s under Miri, for no unsafe code of its own (the mapping is memory.rs's)"
    )]
    fn a_settled_table_starts_afresh_and_moves_once() {
        for (bytes, moves) in [(2 << 20, cfg!(target_os = "linux")), (64 << 10, false)] {
            let mut t = Table::new(bytes).unwrap();
            let first = t.base();
            let mut settled = None;
            for round in 0..3u64 {
                let key = 11 + round;
                t.store(entry(key, 4));
                assert!(t.probe(key, true, false).is_some());
                t.settle();
                assert!(t.probe(key, true, false).is_none(), "{bytes} bytes: afresh");
                assert_eq!(t.base() != first, moves, "{bytes} bytes: moved or not");
                let base = *settled.get_or_insert(t.base());
                assert_eq!(
                    t.base(),
                    base,
                    "{bytes} bytes, round {round}: moved once only"
                );
            }
            t.store(entry(99, 4)); // and the new memory serves
            assert_eq!(t.probe(99, true, false).map(|e| e.depth), Some(4));
        }
    }

    /// Every mix of two entries' words, as two threads writing one slot at once could
    /// leave it, is rejected, while each whole entry is found. The second pair's best
    /// moves and depths XOR alike (1 ^ 2 == 2 ^ 1), which a plain XOR check would miss.
    #[test]
    fn a_torn_entry_is_never_used() {
        let t = Table::new(64).unwrap();
        let aliasing = |key, best, depth| Entry {
            best,
            depth,
            ..entry(key, 0)
        };
        let pairs = [
            (
                entry(0x1234_5678_9abc_def0, 7),
                entry(0x0fed_cba9_8765_4321, 9),
            ),
            (aliasing(11, 1, 2), aliasing(12, 2, 1)),
        ];
        for (a, b) in pairs {
            let words = |e: Entry| {
                t.bucket(0).iter().for_each(|slot| write(slot, [0; 4]));
                t.store(e); // into the emptied deepest slot
                load(&t.bucket(0)[0])
            };
            let (wa, wb) = (words(a), words(b));
            for mask in 0..16u32 {
                let mixed: [u64; 4] =
                    std::array::from_fn(|i| if mask >> i & 1 == 1 { wb[i] } else { wa[i] });
                write(&t.bucket(0)[0], mixed);
                write(&t.bucket(0)[1], [0; 4]);
                for e in [a, b] {
                    let hit = t
                        .probe(e.key, true, false)
                        .map(|h| (h.key, h.best, h.depth));
                    let whole = |w: Entry| (w.key == e.key).then_some((w.key, w.best, w.depth));
                    match mask {
                        0 => assert_eq!(hit, whole(a)),
                        15 => assert_eq!(hit, whole(b)),
                        _ => assert_eq!(hit, None, "mask {mask}: a torn entry was used"),
                    }
                }
            }
        }
    }

    /// The same over every pair of entries with small best moves, depths and values, the
    /// structured values where a linear check finds aliases.
    #[test]
    #[cfg_attr(
        miri,
        ignore = "450,000 cases of arithmetic on words: nothing unsafe, minutes under Miri"
    )]
    fn no_torn_mix_of_small_entries_passes_the_check() {
        let small = |key: u64, best: i64, depth: u32, value: i64| Entry {
            key,
            value,
            best,
            depth,
            bound: Bound::Exact,
            proven: false,
            max_side: true,
            expected: false,
        };
        let t = Table::new(64).unwrap();
        let words = |e: Entry| {
            t.bucket(0).iter().for_each(|slot| write(slot, [0; 4]));
            t.store(e);
            load(&t.bucket(0)[0])
        };
        let mut entries = Vec::new();
        for best in 0..6 {
            for depth in 0..6 {
                for value in -2..3 {
                    let key = entries.len() as u64 + 1;
                    entries.push((key, words(small(key, best, depth, value))));
                }
            }
        }
        let mut mixes = 0;
        for &(ka, wa) in &entries {
            for &(_, wb) in &entries {
                for mask in 1..15u32 {
                    let [k, v, b, m]: [u64; 4] =
                        std::array::from_fn(|i| if mask >> i & 1 == 1 { wb[i] } else { wa[i] });
                    if [k, v, b, m] != wa {
                        assert_ne!(k ^ check(v, b, m), ka, "a torn mix passes");
                        mixes += 1;
                    }
                }
            }
        }
        assert!(mixes > 300_000);
    }

    /// Threads storing and probing the same few buckets at once: every entry found is one
    /// that some thread stored whole (its fields agree with its key).
    #[test]
    fn concurrent_stores_never_yield_a_mixed_entry() {
        let t = Table::new(256).unwrap(); // four buckets, much contention
        let consistent = |e: &Entry| {
            e.value == (e.key as i64).wrapping_mul(-1000)
                && e.best == e.key as i64 + 1
                && e.depth == (e.key % 50) as u32
        };
        let hits = std::sync::atomic::AtomicU64::new(0);
        std::thread::scope(|s| {
            for thread in 0..8u64 {
                let (t, hits) = (&t, &hits);
                s.spawn(move || {
                    let mut x = thread + 1;
                    // (Fewer under Miri, which checks these accesses for data races.)
                    for _ in 0..if cfg!(miri) { 500 } else { 200_000 } {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        let key = (x >> 8) % 64 + 1;
                        if x & 1 == 0 {
                            t.store(entry(key, (key % 50) as u32));
                        } else if let Some(e) = t.probe(key, true, false) {
                            assert!(consistent(&e), "mixed entry {e:?}");
                            hits.fetch_add(1, Relaxed);
                        }
                    }
                });
            }
        });
        assert!(hits.load(Relaxed) > 0);
    }
}
