//! The C game interface driven from Rust: a small game's callbacks written as a C program
//! writes them (`extern "C"` functions over a context pointer), through `mm_search` (each
//! method, a table of the search's own and a lent one, 2 threads on copied contexts, a
//! chance variant) and `mm_mcts_*` (a proof, the tree kept across a move, 2 threads).
//! Small enough that `make miri` runs it under Miri, which checks the C boundary's unsafe
//! code (the context pointers, the callbacks' buffers, the out-parameters) for undefined
//! behaviour. The values are checked against a plain recursive search written here and
//! against the game's known theory: in this game (take 1 to 3 sticks, taking the last
//! wins) the side to move loses exactly when the sticks are a multiple of 4.

use minimax::ffi::game::*;
use minimax::ffi::mcts::*;
use minimax::ffi::options::*;
use minimax::ffi::result::*;
use minimax::ffi::status::mm_status::{self, *};
use minimax::ffi::table::*;
use minimax::ffi::twoplayer::search::mm_search;
use std::ffi::c_void;
use std::ptr;

/// The position: sticks left, whose turn, and, in the chance variant, whether a coin is
/// to fall (after each move that leaves more than one stick, it takes one more or none).
#[derive(Clone, Debug)]
struct Sticks {
    left: i64,
    max_to_move: bool,
    coin: bool,
    coin_next: bool,
    /// Each move or coin played, with `coin_next` before it, for `undo`.
    played: Vec<(i64, bool)>,
}

impl Sticks {
    fn new(left: i64, coin: bool) -> Sticks {
        Sticks {
            left,
            max_to_move: true,
            coin,
            coin_next: false,
            played: Vec::new(),
        }
    }

    fn moves(&self) -> Vec<i64> {
        (1..=3.min(self.left)).rev().collect()
    }

    fn play(&mut self, mv: i64) {
        self.played.push((mv, self.coin_next));
        self.left -= mv;
        if self.coin_next {
            self.coin_next = false;
        } else {
            self.max_to_move = !self.max_to_move;
            self.coin_next = self.coin && self.left > 1;
        }
    }

    fn undo(&mut self, mv: i64) {
        let (last, coin_next) = self.played.pop().expect("a move to take back");
        assert_eq!(last, mv, "undo of the move played last");
        self.left += mv;
        if !coin_next {
            self.max_to_move = !self.max_to_move;
        }
        self.coin_next = coin_next;
    }

    /// MAX's score when over: the side that took the last stick wins (a coin never does).
    fn outcome(&self) -> Option<i32> {
        (self.left == 0).then_some(if self.max_to_move { -1 } else { 1 })
    }
}

/// The reference: plain expectimax (minimax where there is no coin) over `Sticks` itself.
fn reference(s: &mut Sticks) -> f64 {
    if let Some(v) = s.outcome() {
        return v as f64;
    }
    if s.coin_next {
        let mut sum = 0.0;
        for c in [0, 1] {
            s.play(c);
            sum += reference(s) / 2.0;
            s.undo(c);
        }
        return sum;
    }
    let mut best = if s.max_to_move { -2.0 } else { 2.0 };
    for mv in s.moves() {
        s.play(mv);
        let v = reference(s);
        s.undo(mv);
        best = if s.max_to_move {
            f64::max(best, v)
        } else {
            f64::min(best, v)
        };
    }
    best
}

// The callbacks, as a C program would write them.

/// # Safety
/// `ctx` is the `Sticks` the game was made with (or a copy from `copy`).
unsafe fn sticks<'a>(ctx: *mut c_void) -> &'a mut Sticks {
    // SAFETY: the engine passes the context it was given, or a copy from `copy`, each
    // used by one thread at a time.
    unsafe { &mut *ctx.cast::<Sticks>() }
}

unsafe extern "C" fn moves(ctx: *mut c_void, out: *mut i64, cap: usize) -> i32 {
    // SAFETY: as `sticks` says.
    let s = unsafe { sticks(ctx) };
    let ms = s.moves();
    // SAFETY: the engine gives room for `cap` moves.
    let out = unsafe { std::slice::from_raw_parts_mut(out, cap) };
    for (o, m) in out.iter_mut().zip(&ms) {
        *o = *m;
    }
    ms.len() as i32
}
unsafe extern "C" fn play(ctx: *mut c_void, mv: i64) {
    // SAFETY: as `sticks` says.
    unsafe { sticks(ctx) }.play(mv);
}
unsafe extern "C" fn undo(ctx: *mut c_void, mv: i64) {
    // SAFETY: as `sticks` says.
    unsafe { sticks(ctx) }.undo(mv);
}
unsafe extern "C" fn outcome(ctx: *mut c_void, score: *mut i32) -> bool {
    // SAFETY: as `sticks` says.
    let Some(v) = unsafe { sticks(ctx) }.outcome() else {
        return false;
    };
    // SAFETY: the engine passes a writable score.
    unsafe { score.write(v) };
    true
}
unsafe extern "C" fn evaluate(_: *mut c_void) -> i32 {
    0
}
unsafe extern "C" fn hash(ctx: *mut c_void) -> u64 {
    // SAFETY: as `sticks` says.
    let s = unsafe { sticks(ctx) };
    let h = (s.left as u64) << 2 | (s.max_to_move as u64) << 1 | s.coin_next as u64;
    h.wrapping_mul(0x9e37_79b9_7f4a_7c15)
}
unsafe extern "C" fn max_to_move(ctx: *mut c_void) -> bool {
    // SAFETY: as `sticks` says.
    unsafe { sticks(ctx) }.max_to_move
}
unsafe extern "C" fn copy(ctx: *mut c_void) -> *mut c_void {
    // SAFETY: as `sticks` says.
    let s = unsafe { sticks(ctx) }.clone();
    Box::into_raw(Box::new(s)).cast()
}
unsafe extern "C" fn free(ctx: *mut c_void) {
    // SAFETY: made by `copy`, freed once.
    drop(unsafe { Box::from_raw(ctx.cast::<Sticks>()) });
}
unsafe extern "C" fn bounds(_: *mut c_void, lo: *mut i32, hi: *mut i32) -> bool {
    // SAFETY: the engine passes writable scores.
    unsafe {
        lo.write(-1);
        hi.write(1);
    }
    true
}
unsafe extern "C" fn is_chance(ctx: *mut c_void) -> bool {
    // SAFETY: as `sticks` says.
    unsafe { sticks(ctx) }.coin_next
}
unsafe extern "C" fn outcomes(_: *mut c_void, out: *mut i64, w: *mut f64, cap: usize) -> i32 {
    if cap >= 2 {
        // SAFETY: the engine gives room for `cap` of each.
        unsafe {
            out.write(0);
            out.add(1).write(1);
            w.write(1.0);
            w.add(1).write(1.0);
        }
    }
    2
}

fn game(s: &mut Sticks) -> mm_game {
    let mut g = mm_game {
        context: ptr::from_mut(s).cast(),
        moves: Some(moves),
        play: Some(play),
        undo: Some(undo),
        outcome: Some(outcome),
        evaluate: Some(evaluate),
        hash: Some(hash),
        max_to_move: Some(max_to_move),
        copy_context: Some(copy),
        free_context: Some(free),
        ..Default::default()
    };
    if s.coin {
        g.is_chance = Some(is_chance);
        g.outcomes = Some(outcomes);
        // Star1 and Star2 need the scores' range.
        g.bounds = Some(bounds);
    }
    g
}

/// Tables small enough for Miri (a search's own, or none).
fn options(method: mm_search_method, table_bytes: usize, threads: u32) -> mm_search_options {
    mm_search_options {
        method,
        table_bytes,
        threads,
        ..Default::default()
    }
}

fn search(s: &mut Sticks, o: &mm_search_options) -> (mm_status, mm_search_result, Vec<i64>) {
    let g = game(s);
    // SAFETY: zeroes are a valid result (plain integers and bools).
    let mut out: mm_search_result = unsafe { std::mem::zeroed() };
    let mut pv = vec![0i64; 32];
    // SAFETY: `g`'s context is `s`, alive and not otherwise used during the call; `out`
    // is writable and `pv` holds 32 moves.
    let status = unsafe { mm_search(&g, o, &mut out, pv.as_mut_ptr(), pv.len()) };
    pv.truncate(out.pv_len.min(32));
    (status, out, pv)
}

/// The positions searched: 1 to 9 sticks (to 6 under Miri, whose interpreter took 5
/// minutes for what runs natively in a hundredth of a second; the smaller ones run the
/// same code).
const SIZES: std::ops::RangeInclusive<i64> = 1..=if cfg!(miri) { 5 } else { 9 };

#[test]
fn every_method_agrees_with_the_reference_and_the_theory() {
    let methods = [
        MM_SEARCH_MINIMAX,
        MM_SEARCH_ALPHABETA,
        MM_SEARCH_PVS,
        MM_SEARCH_EXACT,
    ];
    for n in SIZES {
        let mut s = Sticks::new(n, false);
        let want = reference(&mut s);
        assert_eq!(
            want,
            if n % 4 == 0 { -1.0 } else { 1.0 },
            "theory, {n} sticks"
        );
        for &method in &methods {
            for (table, threads) in [(0, 1), (4096, 1), (4096, 2)] {
                let (status, out, pv) = search(&mut s, &options(method, table, threads));
                let case = format!("{n} sticks, method {method}, table {table}, threads {threads}");
                assert_eq!(status, MM_OK, "{case}");
                assert_eq!(out.value as f64, want, "{case}");
                assert!(out.proven && out.has_move, "{case}");
                assert_eq!(s.left, n, "{case}: the position is given back");
                assert!(s.played.is_empty(), "{case}");
                if want > 0.0 {
                    // The only winning move leaves a multiple of 4.
                    assert_eq!(out.best_move, n % 4, "{case}");
                }
                assert_eq!(pv.first(), Some(&out.best_move), "{case}");
                if threads == 2 && table > 0 && method != MM_SEARCH_MINIMAX {
                    assert_eq!(out.threads_used, 2, "{case}");
                }
            }
        }
    }
}

#[test]
fn a_lent_table_and_depth_limits() {
    let mut table = ptr::null_mut();
    // SAFETY: `table` is writable.
    assert_eq!(unsafe { mm_table_new(1 << 12, &mut table) }, MM_OK);
    for n in SIZES {
        let mut s = Sticks::new(n, false);
        let want = reference(&mut s);
        for depth in [1, 2, n as u32, n as u32 + 1] {
            let o = mm_search_options {
                table,
                max_depth: depth,
                iterative_deepening: true,
                method: MM_SEARCH_PVS,
                ..Default::default()
            };
            let (status, out, _) = search(&mut s, &o);
            assert_eq!(status, MM_OK);
            // A depth reaching every end proves the value; a shallower one may not.
            if depth >= n as u32 {
                assert!(out.proven, "{n} sticks, depth {depth}");
            }
            if out.proven {
                assert_eq!(out.value as f64, want, "{n} sticks, depth {depth}");
            }
        }
    }
    // SAFETY: from `mm_table_new`, freed once.
    unsafe { mm_table_free(table) };
}

#[test]
fn the_chance_methods_agree_with_plain_expectimax() {
    for n in SIZES {
        let mut s = Sticks::new(n, true);
        let want = reference(&mut s);
        for method in [MM_SEARCH_EXPECTIMAX, MM_SEARCH_STAR1, MM_SEARCH_STAR2] {
            for table in [0, 4096] {
                let (status, out, _) = search(&mut s, &options(method, table, 1));
                let case = format!("{n} sticks, method {method}, table {table}");
                assert_eq!(status, MM_OK, "{case}");
                assert_eq!(out.value_kind, MM_VALUE_EXPECTED, "{case}");
                assert!(
                    (out.expected - want).abs() < 1e-9,
                    "{case}: {}",
                    out.expected
                );
                assert!(out.proven, "{case}");
            }
        }
        // The deterministic methods refuse a chance node when they meet one (from 5
        // sticks on, the first move listed leaves at least 2, and a coin to fall).
        if n >= 5 {
            let (status, _, _) = search(&mut s, &options(MM_SEARCH_ALPHABETA, 0, 1));
            assert_eq!(status, MM_ERR_GAME_CHANCE_NODE, "{n} sticks");
        }
        assert!(s.played.is_empty());
    }
}

fn mcts(
    m: *mut mm_mcts,
    s: &mut Sticks,
    threads: u32,
) -> (mm_status, mm_mcts_result, Vec<mm_mcts_move>) {
    let g = game(s);
    let o = mm_mcts_options {
        playouts: 1000,
        max_nodes: 20_000,
        threads,
        seed: 7,
        ..Default::default()
    };
    // SAFETY: zeroes are a valid result.
    let mut out: mm_mcts_result = unsafe { std::mem::zeroed() };
    let mut root = vec![mm_mcts_move::default(); 3];
    // SAFETY: `m` is live; `g`'s context is `s`, alive and not otherwise used during the
    // call; `out` is writable and `root` holds 3 entries.
    let status = unsafe { mm_mcts_search(m, &g, &o, &mut out, root.as_mut_ptr(), root.len()) };
    root.truncate(out.root_len.min(3));
    (status, out, root)
}

#[test]
fn mcts_proves_wins_and_losses_and_keeps_its_tree() {
    for threads in [1, 2] {
        for n in [5, 6, 7, 8] {
            let mut m = ptr::null_mut();
            // SAFETY: `m` is writable.
            assert_eq!(unsafe { mm_mcts_new(&mut m) }, MM_OK);
            let mut s = Sticks::new(n, false);
            let (status, out, root) = mcts(m, &mut s, threads);
            let case = format!("{n} sticks, {threads} threads");
            assert_eq!(status, MM_OK, "{case}");
            assert!(out.proven, "{case}");
            let win = n % 4 != 0;
            assert_eq!(out.proven_reward, if win { 1.0 } else { 0.0 }, "{case}");
            assert_eq!(root.len(), 3, "{case}");
            let mut listed: Vec<i64> = root.iter().map(|r| r.mv).collect();
            listed.sort();
            assert_eq!(listed, [1, 2, 3], "{case}");
            assert!(s.played.is_empty(), "{case}");
            if win {
                assert_eq!(out.best_move, n % 4, "{case}");
                // Keep the subtree of the winning move: the opponent's position is a
                // proven loss for the side to move.
                // SAFETY: `m` is live.
                assert_eq!(unsafe { mm_mcts_advance(m, out.best_move) }, MM_OK);
                s.play(out.best_move);
                let (status, out, _) = mcts(m, &mut s, threads);
                assert_eq!(status, MM_OK, "{case}, after the move");
                assert!(
                    out.proven && out.proven_reward == 0.0,
                    "{case}, after the move"
                );
            }
            // SAFETY: from `mm_mcts_new`, freed once.
            unsafe { mm_mcts_free(m) };
        }
    }
}
