//! Every allocation a 2-thread search reaches is fallible, the start of its helper thread
//! included (issue 40): a search in a new process (so that the pool has no thread yet)
//! whose allocator refuses every allocation after the first `k`, for every `k` up to the
//! search's whole count, answers or reports `OutOfMemory`, and never aborts. Each `k` runs
//! in a process of its own (this test binary, run again with `MM_REFUSE_AFTER` set), since
//! an abort ends the process. Before, the helper's start by `std::thread` allocated its
//! handle, name and closure infallibly, and its mailbox was an `Arc`: refused, they aborted.

#[path = "common/games.rs"]
mod games;

use std::alloc::{GlobalAlloc, Layout, System};
use std::process::Command;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};

use games::{Bits, TicTacToe};
use minimax::search::maxn_mcts::{MaxnMcts, MaxnMctsOptions};
use minimax::search::mcts::{Mcts, MctsOptions};
use minimax::search::{GameError, Method, Options, search_parallel};

/// Three players in turn take 1 or 2 sticks; whoever takes the last wins. Its copies
/// and moves allocate nothing, so that every allocation counted is the search's.
#[derive(Clone, Copy)]
struct Sticks {
    left: i64,
    to_move: usize,
}

impl minimax::search::Game for Sticks {
    fn moves(&mut self, out: &mut Vec<minimax::search::Move>) -> Result<(), GameError> {
        out.extend((1..=2).filter(|&n| n <= self.left));
        Ok(())
    }
    fn play(&mut self, n: minimax::search::Move) {
        self.left -= n;
        self.to_move = (self.to_move + 1) % 3;
    }
    fn undo(&mut self, n: minimax::search::Move) {
        self.left += n;
        self.to_move = (self.to_move + 2) % 3;
    }
    fn outcome(&mut self) -> Option<i32> {
        None
    }
    fn evaluate(&mut self) -> i32 {
        0
    }
    fn players(&mut self) -> usize {
        3
    }
    fn player_to_move(&mut self) -> usize {
        self.to_move
    }
    fn player_scores(&mut self, out: &mut [i32]) -> bool {
        if self.left > 0 {
            return false;
        }
        out[(self.to_move + 2) % 3] = 1;
        true
    }
}

/// Counts allocations while armed, and refuses each one after the first `ALLOWED`.
struct Refusing;

static ARMED: AtomicBool = AtomicBool::new(false);
static SEEN: AtomicUsize = AtomicUsize::new(0);
static ALLOWED: AtomicUsize = AtomicUsize::new(usize::MAX);
static REFUSED: AtomicBool = AtomicBool::new(false);

impl Refusing {
    fn admit() -> bool {
        if !ARMED.load(Relaxed) || SEEN.fetch_add(1, Relaxed) < ALLOWED.load(Relaxed) {
            return true;
        }
        REFUSED.store(true, Relaxed);
        false
    }
}

// SAFETY: every call is passed on to the system allocator unchanged, or refused with
// NULL (which callers must handle); the counts are only statistics.
unsafe impl GlobalAlloc for Refusing {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if !Refusing::admit() {
            return std::ptr::null_mut();
        }
        // SAFETY: the caller's layout, passed on.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if !Refusing::admit() {
            return std::ptr::null_mut();
        }
        // SAFETY: as above.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, p: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if !Refusing::admit() {
            return std::ptr::null_mut();
        }
        // SAFETY: a block this allocator gave, with its layout, passed on.
        unsafe { System.realloc(p, layout, new_size) }
    }
    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        // SAFETY: a block this allocator gave, with its layout.
        unsafe { System.dealloc(p, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Refusing = Refusing;

/// The searches tried, each on 2 threads.
const SEARCHES: [&str; 4] = ["pvs", "exact", "mcts", "maxn_mcts"];

/// One search of kind `what`, armed to refuse after `allowed` allocations; prints
/// `threads T refused R seen S` for the parent.
fn search_once(what: &str, allowed: usize) {
    ALLOWED.store(allowed, Relaxed);
    let mut moves = Vec::with_capacity(16);
    // The threads it ran on and its move, or its error.
    let answer = if what == "mcts" {
        let mut g = Bits::new();
        let mut o = MctsOptions {
            playouts: 500,
            threads: 2,
            ..MctsOptions::default()
        };
        let mut m = Mcts::new();
        ARMED.store(true, Relaxed);
        let r = m.search_parallel(&mut g, &mut o);
        ARMED.store(false, Relaxed);
        minimax::search::Game::moves(&mut g, &mut moves).unwrap();
        r.map(|r| (r.threads, r.best_move))
    } else if what == "maxn_mcts" {
        let mut g = Sticks {
            left: 12,
            to_move: 0,
        };
        let o = MaxnMctsOptions {
            playouts: 300,
            threads: 2,
            ..MaxnMctsOptions::default()
        };
        let mut m = MaxnMcts::new();
        ARMED.store(true, Relaxed);
        let r = m.search_parallel(&mut g, &o);
        ARMED.store(false, Relaxed);
        minimax::search::Game::moves(&mut g, &mut moves).unwrap();
        r.map(|r| (r.threads, r.best_move))
    } else {
        let mut g = TicTacToe::new();
        let mut o = Options {
            method: if what == "pvs" {
                Method::Pvs
            } else {
                Method::Exact
            },
            threads: 2,
            table_bytes: 1 << 16,
            ..Options::default()
        };
        ARMED.store(true, Relaxed);
        let r = search_parallel(&mut g, &mut o);
        ARMED.store(false, Relaxed);
        minimax::search::Game::moves(&mut g, &mut moves).unwrap();
        r.map(|r| {
            // Tic-tac-toe is a draw with best play (a published value).
            assert_eq!(r.value, 0, "{what}, {allowed} allowed");
            (r.threads, r.best_move)
        })
    };
    let (threads, best) = answer.unwrap_or_else(|e| {
        assert_eq!(e, GameError::OutOfMemory, "{what}, {allowed} allowed");
        (0, None)
    });
    if threads > 0 {
        let best = best.expect("an answer has a move");
        assert!(moves.contains(&best), "{what}: a legal move");
    }
    println!(
        "threads {threads} refused {} seen {}",
        REFUSED.load(Relaxed),
        SEEN.load(Relaxed)
    );
}

/// What a child printed: the threads it ran on (0: `OutOfMemory`), whether anything was
/// refused, and how many allocations it saw.
fn run_child(what: &str, allowed: usize) -> (usize, bool, usize) {
    let out = Command::new(std::env::current_exe().unwrap())
        .env("MM_REFUSE_SEARCH", what)
        .env("MM_REFUSE_AFTER", allowed.to_string())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{what} with {allowed} allocations allowed: {:?}\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let words: Vec<&str> = stdout.split_whitespace().collect();
    (
        words[1].parse().unwrap(),
        words[3] == "true",
        words[5].parse().unwrap(),
    )
}

/// The parent runs each search once with nothing refused, for its whole count of
/// allocations, then once for every prefix of that count; a child runs one search.
/// (Its own main, without the test harness: see `Cargo.toml`.)
fn main() {
    if let (Ok(what), Ok(k)) = (
        std::env::var("MM_REFUSE_SEARCH"),
        std::env::var("MM_REFUSE_AFTER"),
    ) {
        search_once(&what, k.parse().unwrap());
        return;
    }
    if cfg!(miri) {
        println!("refused_allocations: skipped under Miri (it starts processes)");
        return;
    }
    for what in SEARCHES {
        let (threads, refused, total) = run_child(what, usize::MAX);
        assert_eq!((threads, refused), (2, false), "{what} with memory");
        // The count varies with the threads' timing (a helper halted before it starts
        // allocates less): every prefix up to the whole count, and on until three
        // searches in a row had nothing refused.
        let (mut answers_on_two, mut unrefused, mut allowed) = (0, 0, 0);
        while allowed < total || unrefused < 3 {
            let (threads, refused, _) = run_child(what, allowed);
            answers_on_two += usize::from(threads == 2);
            unrefused = if refused { 0 } else { unrefused + 1 };
            allowed += 1;
        }
        println!("{what}: {total} allocations, {answers_on_two} answers on 2 threads");
    }
    println!("refused_allocations: ok");
}
