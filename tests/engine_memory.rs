//! The engine's and the chance searches' memory: with memory short, a search gives the
//! right answer, fewer threads (saying why) or `GameError::OutOfMemory`, never an abort,
//! on one thread and on two. (Before: "memory allocation of 96 bytes failed" and an
//! abort, from a ply's buffers grown infallibly, and the helpers' set-up.) The allocator
//! of `common/capped.rs` stands in for the system's.

#[path = "common/capped.rs"]
mod capped;
#[path = "common/games.rs"]
mod games;

use std::sync::atomic::Ordering::Relaxed;

use capped::{CAP, LIVE};
use games::TicTacToe;
use minimax::search::{GameError, Method, Options, search_parallel};

#[test]
fn memory_short_is_an_answer_or_out_of_memory_never_an_abort() {
    let methods = [
        Method::AlphaBeta,
        Method::Pvs,
        Method::Exact,
        Method::Expectimax,
    ];
    let (mut answers, mut on_two) = (0, 0);
    for threads in [2, 1] {
        for method in methods {
            for spare in [0usize, 256, 1 << 10, 4 << 10, 16 << 10, 64 << 10, 256 << 10] {
                let mut g = TicTacToe::new();
                let mut o = Options {
                    method,
                    threads,
                    table_bytes: 1 << 16,
                    ..Options::default()
                };
                CAP.store(LIVE.load(Relaxed) + spare, Relaxed);
                let r = search_parallel(&mut g, &mut o);
                CAP.store(usize::MAX, Relaxed);
                let what = format!("{method:?}, {threads} threads, {spare} bytes");
                match r {
                    Ok(r) => {
                        // Tic-tac-toe is a draw with best play (a published value).
                        assert_eq!(r.value, 0, "{what}");
                        assert!(r.best_move.is_some(), "{what}");
                        if r.threads < threads {
                            assert!(r.fewer_threads.is_some(), "{what}");
                        }
                        answers += 1;
                        on_two += usize::from(r.threads == 2);
                    }
                    Err(e) => assert_eq!(e, GameError::OutOfMemory, "{what}"),
                }
            }
        }
    }
    assert!(
        answers > 0 && on_two > 0,
        "{answers} answers, {on_two} on two threads"
    );
}
