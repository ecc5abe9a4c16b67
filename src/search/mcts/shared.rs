//! The tree several threads search at once (tree parallelisation, Chaslot, Winands and
//! van den Herik 2008): the same nodes as [`Tree`]'s, with atomic fields, in one array
//! allocated at the start, whose pages the system provides as they are first used. A
//! thread adds children to a node under
//! that node's lock (a bit of its flags, only tried, never waited for); everything else
//! is lock-free: visits and sums are added atomically, bounds only narrow (a change
//! followed by a fence, so that no proof is lost between two threads), and a child is
//! published to readers by the link that reaches it (release, read by acquire).
//!
//! A search copies the plain tree in and, when every thread is done, back out.

use std::sync::atomic::Ordering::{Acquire, Relaxed, Release, SeqCst};
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU8, AtomicU32, AtomicU64, fence};

#[cfg(test)]
use super::tree::NO_PRIOR;
use super::tree::{Kind, NONE, Node, Nodes, Tree};
use crate::search::game::Move;

const MAX_TO_MOVE: u8 = 1;
const EXPANDED: u8 = 2;
const CHANCE: u8 = 4;
const OPEN: u8 = 16;
const LOCKED: u8 = 8;

/// A node of the shared tree: `tree::Node`'s fields, atomic. The summed reward is in
/// units of [`UNIT`], so that one `fetch_add` adds to it. The bounds are `f64` bits: for
/// the values in [0, 1] the bits order as the numbers do, so that `fetch_max` and
/// `fetch_min` narrow them.
#[derive(Default)]
struct Slot {
    mv: AtomicI64,
    parent: AtomicU32,
    first_child: AtomicU32,
    last_child: AtomicU32,
    next_sibling: AtomicU32,
    visits: AtomicU32,
    children: AtomicU32,
    flags: AtomicU8,
    sum: AtomicU64,
    lo: AtomicU64,
    hi: AtomicU64,
    hash: AtomicU64,
    /// The prior's `f32` bits.
    prior: AtomicU32,
}

/// The shared tree.
pub(crate) struct SharedTree {
    /// Every place, zeroed (lazily, by the system) until used.
    slots: Box<[Slot]>,
    /// Places taken (may pass the length by a few failed claims), and whether a node
    /// could not be added: written while the threads search, so on a cache line of their
    /// own, away from `slots`, which every node's access reads.
    growth: Growth,
}

#[derive(Default)]
#[repr(align(128))]
struct Growth {
    taken: AtomicU32,
    full: AtomicBool,
}

/// Places a thread takes at once: one shared counter touched for every new node would
/// pass its cache line between the threads each time.
pub(crate) const RESERVE: u32 = 64;

impl SharedTree {
    /// The tree `tree` holds, as a shared tree with room for `room` nodes in all (at
    /// least `tree`'s, at most what fits a node's number); `None` if memory for it could
    /// not be had.
    pub fn copy_of(tree: &Tree, room: usize) -> Option<SharedTree> {
        let room = room.clamp(tree.nodes.len().max(1), NONE as usize - 1);
        let shared = SharedTree {
            slots: zeroed_slots(room)?,
            growth: Growth {
                taken: AtomicU32::new(tree.nodes.len() as u32),
                full: AtomicBool::new(false),
            },
        };
        for (s, n) in shared.slots.iter().zip(&tree.nodes) {
            s.mv.store(n.mv, Relaxed);
            s.parent.store(n.parent, Relaxed);
            s.first_child.store(n.first_child, Relaxed);
            s.last_child.store(n.last_child, Relaxed);
            s.next_sibling.store(n.next_sibling, Relaxed);
            s.visits.store(n.visits, Relaxed);
            s.children.store(n.children, Relaxed);
            s.flags.store(
                flags(
                    n.max_to_move,
                    n.expanded,
                    Kind {
                        chance: n.chance,
                        open: n.open,
                        final_reward: None, // (its bounds are copied below)
                    },
                ),
                Relaxed,
            );
            s.sum.store(units(n.sum), Relaxed);
            s.lo.store(n.lo.to_bits(), Relaxed);
            s.hi.store(n.hi.to_bits(), Relaxed);
            s.hash.store(n.hash, Relaxed);
            s.prior.store(n.prior.to_bits(), Relaxed);
        }
        Some(shared)
    }

    /// The plain tree this one holds, once no other thread uses it, without the places
    /// the threads took and left unused (`unused`, from [`Local::unused`]): the others in
    /// order, renumbered. (A child may come before its parent: threads take places in
    /// blocks.) `None` if memory for it cannot be had.
    pub fn to_tree(&self, unused: impl IntoIterator<Item = (u32, u32)>) -> Option<Tree> {
        let n = (self.growth.taken.load(Relaxed) as usize).min(self.slots.len());
        let mut number = Vec::new();
        number.try_reserve_exact(n).ok()?;
        number.resize(n, 0u32);
        for (from, to) in unused {
            number[from as usize..(to as usize).min(n)].fill(NONE);
        }
        let mut next = 0;
        for k in &mut number {
            if *k != NONE {
                (*k, next) = (next, next + 1);
            }
        }
        let renumber = |id: u32| {
            if id == NONE {
                NONE
            } else {
                number[id as usize]
            }
        };
        let mut nodes = Vec::new();
        nodes.try_reserve_exact(next as usize).ok()?;
        for (s, &k) in self.slots[..n].iter().zip(&number) {
            if k == NONE {
                continue;
            }
            nodes.push(self.node(s, &renumber));
        }
        Some(Tree { nodes })
    }

    /// The root and its children alone, as a plain tree: what a search answers from when
    /// memory for the whole tree cannot be had. `None` if not even that can.
    pub fn root_and_children(&self) -> Option<Tree> {
        let root = &self.slots[0];
        let kids = root.children.load(Relaxed) as usize;
        let mut nodes = Vec::new();
        nodes.try_reserve_exact(kids + 1).ok()?;
        let none = |_: u32| NONE;
        let mut top = self.node(root, &none);
        (top.first_child, top.last_child, top.children) = (NONE, NONE, 0);
        nodes.push(top);
        let mut tree = Tree { nodes };
        let mut c = root.first_child.load(Relaxed);
        while c != NONE {
            let s = &self.slots[c as usize];
            let mut kid = self.node(s, &none);
            // Its children are left out: it lists its moves again at its next visit.
            let childless = s.first_child.load(Relaxed) == NONE;
            (kid.parent, kid.children, kid.expanded) = (0, 0, kid.expanded && childless);
            tree.adopt(kid);
            c = s.next_sibling.load(Relaxed);
        }
        Some(tree)
    }

    /// A slot as a plain node, its links renumbered by `renumber`.
    fn node(&self, s: &Slot, renumber: &dyn Fn(u32) -> u32) -> Node {
        let f = s.flags.load(Relaxed);
        Node {
            mv: s.mv.load(Relaxed),
            parent: renumber(s.parent.load(Relaxed)),
            first_child: renumber(s.first_child.load(Relaxed)),
            last_child: renumber(s.last_child.load(Relaxed)),
            next_sibling: renumber(s.next_sibling.load(Relaxed)),
            visits: s.visits.load(Relaxed),
            sum: s.sum.load(Relaxed) as f64 / UNIT,
            lo: f64::from_bits(s.lo.load(Relaxed)),
            hi: f64::from_bits(s.hi.load(Relaxed)),
            max_to_move: f & MAX_TO_MOVE != 0,
            expanded: f & EXPANDED != 0,
            chance: f & CHANCE != 0,
            open: f & OPEN != 0,
            children: s.children.load(Relaxed),
            hash: s.hash.load(Relaxed),
            prior: f32::from_bits(s.prior.load(Relaxed)),
        }
    }

    /// A thread's hold on the tree, with no places taken yet.
    pub fn local(&self) -> Local<'_> {
        Local {
            tree: self,
            slots: &self.slots,
            next: 0,
            end: 0,
            later: [(NONE, 0, 0); LATER],
            waiting: 0,
        }
    }

    /// Whether a node could not be added.
    pub fn is_full(&self) -> bool {
        self.growth.full.load(Relaxed)
    }
}

/// `n` zeroed slots, from the allocator's zeroed memory: for a large tree, pages the
/// system hands out zeroed when first touched, so that room not used costs nothing.
fn zeroed_slots(n: usize) -> Option<Box<[Slot]>> {
    let layout = std::alloc::Layout::array::<Slot>(n).ok()?;
    // (A slot's alignment is 8: `alloc_zeroed` is `calloc`, which does not write.)
    const _: () = assert!(std::mem::align_of::<Slot>() <= 16);
    // SAFETY: `layout` has a non-zero size (n >= 1, and a slot is not empty).
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<Slot>();
    if ptr.is_null() {
        return None;
    }
    // SAFETY: `ptr` is a fresh allocation of `layout`, the layout a boxed slice of `n`
    // slots has, so the box may own and free it; its bytes are zero, and a slot is
    // atomics of integers only, for which zero bits are a valid value (0).
    Some(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, n)) })
}

/// The summed reward's unit: 2^-24, so that 2^32 visits' rewards fit in 56 bits.
const UNIT: f64 = (1u64 << 24) as f64;

fn units(reward: f64) -> u64 {
    (reward * UNIT + 0.5) as u64 // rounded (rewards are not negative)
}

/// One thread's hold on the shared tree: the places it has taken for its next nodes,
/// and the counts it has put off.
pub(crate) struct Local<'a> {
    tree: &'a SharedTree,
    /// The tree's slots, held here so that reaching one is one step (the compiler may
    /// keep this in a register: the thread's own hold is not shared).
    slots: &'a [Slot],
    next: u32,
    end: u32,
    /// Visits and reward (in units) of busy nodes not yet written, by node: a small
    /// cache with one place for each node's number modulo its size.
    later: [(u32, u32, u64); LATER],
    /// Iterations' counts put off since the last flush.
    waiting: u32,
}

/// A node with this many visits has its counts written in batches: the nodes near the
/// root, which every thread's path passes, would else pass their cache lines between the
/// threads at every playout, while a few playouts more or less move their means by a
/// fraction of a percent. (Their visits are then also written without a virtual loss.)
const BUSY: u32 = 1024;

/// Counts put off before they are written.
const FLUSH_EVERY: u32 = 32;

/// Places for the counts put off.
const LATER: usize = 64;

impl Local<'_> {
    /// Takes the next places (fewer at the end of the room): false when none are left.
    fn reserve(&mut self) -> bool {
        let growth = &self.tree.growth;
        let room = self.tree.slots.len() as u32;
        if growth.full.load(Relaxed) || growth.taken.load(Relaxed) >= room {
            growth.full.store(true, Relaxed);
            return false;
        }
        let start = growth.taken.fetch_add(RESERVE, Relaxed);
        if start >= room {
            growth.full.store(true, Relaxed);
            return false;
        }
        (self.next, self.end) = (start, start.saturating_add(RESERVE).min(room));
        true
    }
}

fn flags(max_to_move: bool, expanded: bool, kind: Kind) -> u8 {
    let kind = (kind.chance as u8 * CHANCE) | (kind.open as u8 * OPEN);
    (max_to_move as u8 * MAX_TO_MOVE) | (expanded as u8 * EXPANDED) | kind
}

impl Nodes for Local<'_> {
    const SHARED: bool = true;
    fn len(&self) -> usize {
        (self.tree.growth.taken.load(Relaxed) as usize).min(self.tree.slots.len())
    }
    fn mv(&self, id: u32) -> Move {
        self.slot(id).mv.load(Relaxed)
    }
    fn max_to_move(&self, id: u32) -> bool {
        self.slot(id).flags.load(Relaxed) & MAX_TO_MOVE != 0
    }
    fn is_chance(&self, id: u32) -> bool {
        self.slot(id).flags.load(Relaxed) & CHANCE != 0
    }
    fn is_open(&self, id: u32) -> bool {
        self.slot(id).flags.load(Relaxed) & OPEN != 0
    }
    // A change of a node's bounds or `expanded` is followed by a `SeqCst` fence, and the
    // thread then reads the siblings' bounds: of two threads that each change a child of
    // the same node, one sees both changes (the fences are in one order for all
    // threads), so that a node's bounds miss no child's even though each thread stops
    // raising them where they do not change. Reads need no order of their own, but for
    // `expanded`'s: it is set (release) after the children are linked and read (acquire)
    // before them (`expanded_children`), so that a thread that sees it set sees every
    // child.
    fn is_expanded(&self, id: u32) -> bool {
        self.slot(id).flags.load(Acquire) & EXPANDED != 0
    }
    fn set_expanded(&mut self, id: u32) {
        if self.slot(id).flags.fetch_or(EXPANDED, Release) & EXPANDED == 0 {
            fence(SeqCst);
        }
    }
    fn bounds(&self, id: u32) -> (f64, f64) {
        let s = self.slot(id);
        let lo = f64::from_bits(s.lo.load(Relaxed));
        (lo, f64::from_bits(s.hi.load(Relaxed)))
    }
    fn narrow(&mut self, id: u32, lo: f64, hi: f64) -> bool {
        let s = self.slot(id);
        // Read first: a write, even of the same value, takes the line from the other
        // threads. (`+ 0.0` turns a -0.0, whose bits are large, into 0.0.)
        let (lo, hi) = ((lo + 0.0).to_bits(), (hi + 0.0).to_bits());
        let raise = s.lo.load(Relaxed) < lo && s.lo.fetch_max(lo, Relaxed) < lo;
        let lower = s.hi.load(Relaxed) > hi && s.hi.fetch_min(hi, Relaxed) > hi;
        if raise || lower {
            fence(SeqCst);
        }
        raise || lower
    }
    fn stats(&self, id: u32) -> (u32, f64) {
        let s = self.slot(id);
        let visits = s.visits.load(Relaxed);
        (visits, s.sum.load(Relaxed) as f64 / UNIT)
    }
    fn first_child(&self, id: u32) -> u32 {
        self.slot(id).first_child.load(Acquire)
    }
    fn next_sibling(&self, id: u32) -> u32 {
        self.slot(id).next_sibling.load(Acquire)
    }
    fn child_count(&self, id: u32) -> u32 {
        self.slot(id).children.load(Relaxed)
    }
    fn prior(&self, id: u32) -> f32 {
        f32::from_bits(self.slot(id).prior.load(Relaxed))
    }
    fn add_child(
        &mut self,
        parent: u32,
        mv: Move,
        max_to_move: bool,
        kind: Kind,
        hash: u64,
        prior: f32,
    ) -> Option<u32> {
        if self.next == self.end && !self.reserve() {
            return None;
        }
        let id = self.next;
        self.next += 1;
        let s = self.slot(id);
        s.mv.store(mv, Relaxed);
        s.parent.store(parent, Relaxed);
        let over = kind.final_reward;
        s.flags
            .store(flags(max_to_move, over.is_some(), kind), Relaxed);
        // A final position is published proven: a thread that followed the link to it
        // before its bounds were narrowed would search on from a position without moves.
        let (lo, hi) = kind.bounds();
        s.lo.store(lo.to_bits(), Relaxed);
        s.hi.store(hi.to_bits(), Relaxed);
        s.hash.store(hash, Relaxed);
        s.prior.store(prior.to_bits(), Relaxed);
        // The other fields are a fresh slot's zeros and NONE below.
        for link in [&s.first_child, &s.last_child, &s.next_sibling] {
            link.store(NONE, Relaxed);
        }
        // Linked under the parent's lock, so by one thread at a time; the release
        // stores publish the fields above to whoever follows the link.
        let p = self.slot(parent);
        p.children.fetch_add(1, Relaxed);
        match p.last_child.swap(id, Relaxed) {
            NONE => p.first_child.store(id, Release),
            last => self.slot(last).next_sibling.store(id, Release),
        }
        if over.is_some() {
            fence(SeqCst); // a change of bounds, as `narrow` makes one
        }
        Some(id)
    }
    fn lock(&mut self, id: u32) -> bool {
        self.slot(id).flags.fetch_or(LOCKED, Acquire) & LOCKED == 0
    }
    fn unlock(&mut self, id: u32) {
        self.slot(id).flags.fetch_and(!LOCKED, Release);
    }
    fn is_locked(&self, id: u32) -> bool {
        // Acquire: once the lock is seen free, the child it was taken for is seen too.
        self.slot(id).flags.load(Acquire) & LOCKED != 0
    }
    #[inline]
    fn enter(&mut self, id: u32, loss: f64) -> bool {
        let s = self.slot(id);
        if s.visits.load(Relaxed) >= BUSY {
            return true; // the visit is counted with the reward
        }
        s.visits.fetch_add(1, Relaxed);
        if loss != 0.0 {
            s.sum.fetch_add(units(loss), Relaxed);
        }
        false
    }
    #[inline]
    fn leave(&mut self, id: u32, reward: f64, loss: f64, later: bool) {
        if later {
            self.put_off(id, 1, units(reward));
            self.waiting += 1;
            if self.waiting >= FLUSH_EVERY {
                self.flush();
            }
            return;
        }
        // (Wrapping: the sum with the loss taken back is never below zero.)
        let add = units(reward).wrapping_sub(units(loss));
        if add != 0 {
            self.slot(id).sum.fetch_add(add, Relaxed);
        }
    }
    fn flush(&mut self) {
        for e in &mut self.later {
            write_out(self.slots, e);
        }
        self.waiting = 0;
    }
}

impl Local<'_> {
    fn slot(&self, id: u32) -> &Slot {
        &self.slots[id as usize]
    }

    /// The places this thread took and did not use: to leave out of the tree.
    pub fn unused(&self) -> (u32, u32) {
        (self.next, self.end)
    }

    /// Adds `visits` and `sum` to `id`'s counts put off, writing out another node's
    /// that had its place.
    fn put_off(&mut self, id: u32, visits: u32, sum: u64) {
        let e = &mut self.later[id as usize % LATER];
        if e.0 != id {
            write_out(self.slots, e);
            e.0 = id;
        }
        (e.1, e.2) = (e.1 + visits, e.2 + sum);
    }
}

/// Adds a put-off entry's counts to its node, if it holds one, and empties it.
fn write_out(slots: &[Slot], e: &mut (u32, u32, u64)) {
    if e.0 != NONE {
        let s = &slots[e.0 as usize];
        s.visits.fetch_add(e.1, Relaxed);
        s.sum.fetch_add(e.2, Relaxed);
    }
    *e = (NONE, 0, 0);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tree_copied_in_and_out_keeps_its_nodes_and_order() {
        let mut t = Tree::default();
        t.reset(true, 9);
        let a = t
            .push_child(0, 10, false, Kind::default(), 1, NO_PRIOR)
            .unwrap();
        t.push_child(0, 20, false, Kind::default(), 2, NO_PRIOR)
            .unwrap();
        t.push_child(a, 11, true, Kind::default(), 3, NO_PRIOR)
            .unwrap();
        t.nodes[a as usize].visits = 5;
        t.nodes[a as usize].sum = 2.5;
        t.nodes[a as usize].lo = 0.5;
        let shared = SharedTree::copy_of(&t, 100).unwrap();
        let mut s = shared.local();
        // Grown by the shared tree's own means.
        let b = s.child(0, 20).unwrap();
        assert!(s.lock(b));
        assert!(!s.lock(b), "a held lock is not taken twice");
        let b1 = s
            .add_child(b, 21, true, Kind::default(), 4, NO_PRIOR)
            .unwrap();
        s.unlock(b);
        assert!(!s.enter(b1, 1.0), "a node of few visits is counted at once");
        s.leave(b1, 0.25, 1.0, false);
        assert!(s.narrow(b1, 0.25, 0.75));
        assert!(!s.narrow(b1, 0.0, 1.0), "bounds only narrow");
        let back = shared.to_tree([s.unused()]).unwrap();
        assert_eq!(back.nodes.len(), 5);
        let moves = |t: &Tree, n| t.children(n).map(|c| t.mv(c)).collect::<Vec<_>>();
        assert_eq!(moves(&back, 0), [10, 20]);
        let a = back.child(0, 10).unwrap();
        assert_eq!(back.stats(a), (5, 2.5));
        assert_eq!(back.bounds(a), (0.5, 1.0));
        let b = back.child(0, 20).unwrap();
        let b1 = back.child(b, 21).unwrap();
        assert_eq!(back.stats(b1), (1, 0.25));
        assert_eq!(back.bounds(b1), (0.25, 0.75));
        assert_eq!(back.nodes[b1 as usize].hash, 4);
        assert_eq!(back.nodes[0].hash, 9);
    }

    /// What a thread reads of a node another thread is growing: each final child proven
    /// as soon as it is linked, and once the node is expanded, every child. Both once
    /// failed, under Miri's schedules: a final child was linked before its bounds were
    /// narrowed (a thread between the two searched on from a position without moves),
    /// and bounds read the children before the flag (a child linked between the two
    /// reads was left out of bounds taken as exact: a false proof).
    #[test]
    fn a_growing_node_shows_final_children_proven_and_all_of_them_once_expanded() {
        let mut t = Tree::default();
        t.reset(true, 0);
        let won = Kind {
            final_reward: Some(1.0),
            ..Kind::default()
        };
        let plain = t.push_child(0, 1, false, won, 0, NO_PRIOR).unwrap();
        assert_eq!(t.bounds(plain), (1.0, 1.0));
        assert!(t.is_expanded(plain));
        const N: usize = 6;
        t.reset(true, 0);
        let shared = SharedTree::copy_of(&t, 1 + N).unwrap();
        std::thread::scope(|scope| {
            let reader = scope.spawn(|| {
                let s = shared.local();
                loop {
                    let (expanded, children) = s.expanded_children(0);
                    let mut seen = 0;
                    for c in children {
                        assert_eq!(s.bounds(c), (1.0, 1.0), "child {c}");
                        assert!(s.is_expanded(c), "child {c}");
                        seen += 1;
                    }
                    if expanded {
                        assert_eq!(seen, N, "an expanded node's children");
                        break;
                    }
                    std::thread::yield_now();
                }
            });
            let mut s = shared.local();
            assert!(s.lock(0));
            for mv in 1..=N as i64 {
                s.add_child(0, mv, false, won, 0, NO_PRIOR).unwrap();
            }
            s.set_expanded(0);
            s.unlock(0);
            reader.join().unwrap();
        });
    }

    #[test]
    fn a_shared_node_takes_no_more_than_a_plain_one() {
        assert_eq!(std::mem::size_of::<Slot>(), std::mem::size_of::<Node>());
    }

    #[test]
    fn a_full_tree_says_so() {
        let mut t = Tree::default();
        t.reset(true, 0);
        let shared = SharedTree::copy_of(&t, 2).unwrap();
        let mut s = shared.local();
        assert!(
            s.add_child(0, 1, false, Kind::default(), 0, NO_PRIOR)
                .is_some()
        );
        assert!(
            s.add_child(0, 2, false, Kind::default(), 0, NO_PRIOR)
                .is_none()
        );
        assert!(shared.is_full());
        assert_eq!(shared.to_tree([s.unused()]).unwrap().nodes.len(), 2);
    }
}
