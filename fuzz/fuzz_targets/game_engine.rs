//! The game engine driven by a game the fuzzer controls, whose callbacks misbehave: move
//! counts that are negative or beyond the capacity, scores at INT_MIN and INT_MAX, bad
//! bounds, no moves without the game being over, moves that lead back to positions seen
//! before (hash collisions included), chance nodes with no outcomes, too many, or
//! negative, NaN, infinite, huge or all-zero weights; noisy moves miscounted as moves can
//! be, and passes. Every search must return a status,
//! never crash or hang; on success the move is legal, the engine took back every move it
//! played, and the same inputs give the same answer.
#![no_main]

use libfuzzer_sys::fuzz_target;
use minimax::ffi::game::*;
use minimax::ffi::mcts::*;
use minimax::ffi::options::*;
use minimax::ffi::result::*;
use minimax::ffi::twoplayer::search::*;
use minimax::ffi::status::mm_status::{self, *};
use std::ffi::c_void;

/// The game: a position is a small number (so that lines meet again), and everything about
/// it comes from the fuzzer's bytes at that number.
struct Rogue<'a> {
    data: &'a [u8],
    key: u64,
    /// The positions and moves played so far, to check that undo matches play.
    stack: Vec<(u64, i64)>,
    /// How deep the game goes before it must end.
    plies: usize,
}

impl Rogue<'_> {
    fn byte(&self, k: u64) -> u8 {
        self.data[((self.key * 13 + k) % self.data.len() as u64) as usize]
    }
    fn int(&self, k: u64) -> i32 {
        match self.byte(k) {
            0 => i32::MIN,
            1 => i32::MAX,
            2 => i32::MIN + 1,
            3 => i32::MAX - 1,
            b => b as i32 % 21 - 10,
        }
    }
}

fn rogue<'a>(ctx: *mut c_void) -> &'a mut Rogue<'a> {
    // SAFETY: every callback gets the context given in `mm_game`: a live `Rogue` that
    // only the search uses while it runs.
    unsafe { &mut *ctx.cast::<Rogue>() }
}

unsafe extern "C" fn moves(ctx: *mut c_void, out: *mut i64, cap: usize) -> i32 {
    let g = rogue(ctx);
    let b = g.byte(0);
    let n: i32 = match b {
        250 => -1,
        251 => i32::MIN,
        252 => cap as i32 + 1, // claims more than it was given room for
        _ => (b % 5) as i32,   // 0: no moves, whether or not the game says it is over
    };
    for i in 0..(n.max(0) as usize).min(cap) {
        let mv = match g.byte(10 + i as u64) {
            0 => i64::MIN,
            1 => i64::MAX,
            x => (x % 4) as i64, // duplicates happen
        };
        // SAFETY: `out` has room for `cap` moves (the engine's contract) and i < cap.
        unsafe { out.add(i).write(mv) };
    }
    n
}

/// Noisy moves, for quiescence: malformed counts as `moves` has them, else 0 to 2 moves
/// (perhaps not legal ones: the game takes any move).
unsafe extern "C" fn noisy_moves(ctx: *mut c_void, out: *mut i64, cap: usize) -> i32 {
    let g = rogue(ctx);
    let n: i32 = match g.byte(5) {
        250 => -1,
        251 => i32::MIN,
        252 => cap as i32 + 1,
        b => (b % 3) as i32,
    };
    for i in 0..(n.max(0) as usize).min(cap) {
        // SAFETY: `out` has room for `cap` moves (the engine's contract) and i < cap.
        unsafe { out.add(i).write((g.byte(20 + i as u64) % 4) as i64) };
    }
    n
}

/// A pass, where the position's byte says the game can pass.
unsafe extern "C" fn null_move(ctx: *mut c_void, pass: *mut i64) -> bool {
    let g = rogue(ctx);
    // SAFETY: `pass` points to the engine's writable local.
    unsafe { pass.write(5) };
    g.byte(6) % 2 == 0
}

unsafe extern "C" fn play(ctx: *mut c_void, mv: i64) {
    let g = rogue(ctx);
    g.stack.push((g.key, mv));
    g.key = (g.key * 31 + mv as u64 % 7 + 1) % 97; // few positions: lines meet again
}

unsafe extern "C" fn undo(ctx: *mut c_void, mv: i64) {
    let g = rogue(ctx);
    let (key, played) = g.stack.pop().expect("undo without play");
    assert_eq!(played, mv, "undo takes back the last move played");
    g.key = key;
}

unsafe extern "C" fn outcome(ctx: *mut c_void, score: *mut i32) -> bool {
    let g = rogue(ctx);
    let over = g.stack.len() >= g.plies || g.byte(1) % 4 == 0;
    if over {
        // SAFETY: `score` points to the engine's writable local.
        unsafe { score.write(g.int(2)) };
    }
    over
}

unsafe extern "C" fn evaluate(ctx: *mut c_void) -> i32 {
    rogue(ctx).int(3)
}

unsafe extern "C" fn hash(ctx: *mut c_void) -> u64 {
    let g = rogue(ctx);
    if g.byte(4) == 7 { 0 } else { g.key } // collisions too
}

unsafe extern "C" fn max_to_move(ctx: *mut c_void) -> bool {
    let g = rogue(ctx);
    g.byte(5) & 1 == 1
}

unsafe extern "C" fn bounds(ctx: *mut c_void, lo: *mut i32, hi: *mut i32) -> bool {
    let g = rogue(ctx);
    if g.byte(6) % 3 == 0 {
        return false;
    }
    // SAFETY: `lo` and `hi` point to the engine's writable locals.
    unsafe {
        lo.write(g.int(7));
        hi.write(g.int(8)); // sometimes below `lo`
    }
    true
}

unsafe extern "C" fn is_chance(ctx: *mut c_void) -> bool {
    rogue(ctx).byte(20) % 3 == 0
}

unsafe extern "C" fn outcomes(ctx: *mut c_void, out: *mut i64, weights: *mut f64, cap: usize) -> i32 {
    let g = rogue(ctx);
    let n: i32 = match g.byte(21) {
        250 => -1,
        251 => cap as i32 + 1,
        b => (b % 4) as i32, // 0: a chance node with no outcomes
    };
    for i in 0..(n.max(0) as usize).min(cap) {
        let w = match g.byte(22 + i as u64) {
            0 => -1.0,
            1 => f64::NAN,
            2 => f64::INFINITY,
            3 => 0.0,
            4 => f64::MAX, // two of them overflow the sum
            b => (b % 7) as f64 + 0.5,
        };
        // SAFETY: both buffers have room for `cap` entries (the engine's contract), i < cap.
        unsafe {
            out.add(i).write(i as i64);
            weights.add(i).write(w);
        }
    }
    n
}

/// MCTS's priors, from the data: none, or weights that may be negative, NaN, infinite,
/// zero or overflowing.
unsafe extern "C" fn priors(ctx: *mut c_void, _: *const i64, n: usize, out: *mut f64) -> bool {
    let g = rogue(ctx);
    if g.byte(40) % 4 == 0 {
        return false;
    }
    for i in 0..n {
        let w = match g.byte(41 + i as u64) {
            0 => -1.0,
            1 => f64::NAN,
            2 => f64::INFINITY,
            3 => 0.0,
            4 => f64::MAX,
            b => (b % 9) as f64,
        };
        // SAFETY: `out` has room for `n` weights (the engine's contract), i < n.
        unsafe { out.add(i).write(w) };
    }
    true
}

impl<'a> Rogue<'a> {
    /// The game `data` drives, as long as the header's first byte says.
    fn new(data: &'a [u8], header: &[u8]) -> Rogue<'a> {
        Rogue {
            data,
            key: 0,
            stack: Vec::new(),
            plies: 1 + header[0] as usize % 6,
        }
    }
}

/// The root's moves as a search with room for `cap` will see them.
fn root_moves(ctx: *mut c_void, cap: usize) -> Vec<i64> {
    let mut root = vec![0i64; cap];
    // SAFETY: `root` has room for `cap` moves.
    let n = unsafe { moves(ctx, root.as_mut_ptr(), root.len()) };
    root.truncate(n.clamp(0, cap as i32) as usize);
    root
}

/// The rogue game's callbacks, the optional ones as the header's bits say.
fn rogue_game(ctx: *mut c_void, header: &[u8]) -> mm_game {
    let flags = header[1];
    mm_game {
        context: ctx,
        moves: Some(moves),
        play: Some(play),
        undo: Some(undo),
        outcome: Some(outcome),
        evaluate: Some(evaluate),
        hash: (flags & 1 == 1).then_some(hash as _),
        max_to_move: (flags & 2 == 2).then_some(max_to_move as _),
        bounds: (flags & 4 == 4).then_some(bounds as _),
        is_chance: (header[6] & 16 == 16).then_some(is_chance as _),
        outcomes: (header[6] & 16 == 16).then_some(outcomes as _),
        priors: (header[6] & 32 == 32).then_some(priors as _),
        noisy_moves: (header[6] & 128 == 128).then_some(noisy_moves as _),
        null_move: (header[6] & 128 == 128).then_some(null_move as _),
        ..Default::default()
    }
}

fn run(data: &[u8], header: &[u8]) -> (mm_status, Option<(mm_search_result, Vec<i64>)>, Vec<i64>) {
    let mut g = Rogue::new(data, header);
    let ctx = (&mut g as *mut Rogue).cast::<c_void>();
    let flags = header[1];
    let game = rogue_game(ctx, header);
    // SAFETY: all-zero options are then filled by the init function.
    let mut o: mm_search_options = unsafe { std::mem::zeroed() };
    // SAFETY: `o` is writable.
    unsafe { mm_search_options_init_sized(&mut o, size_of::<mm_search_options>()) };
    o.method = header[2] as u32 % 8; // 7 is not a method; 4-6 are the chance methods
    o.max_depth = match header[3] % 10 {
        0 => MM_DEPTH_UNLIMITED,
        d => d as u32,
    };
    o.iterative_deepening = flags & 8 == 8;
    o.table_bytes = if flags & 16 == 16 { 1 << 12 } else { 0 };
    // A game whose positions collide in the table (or repeat) may never be proven, and an
    // unlimited search of it then deepens up to the engine's ply limit: a node limit keeps
    // every run short.
    o.node_limit = if flags & 32 == 32 { 1 + header[4] as u64 } else { 100_000 };
    o.max_moves = header[5] as usize % 6; // 0 is refused
    o.refine_distance = flags & 64 == 64;
    o.max_at_root = flags & 128 == 128;
    o.table_frontier = header[6] & 64 == 64;
    // The search enhancements of issue 41, all at once, with the game's noisy moves and
    // pass (time management has no time limit here: it never stops a search, so the
    // answer stays repeatable).
    let enhanced = header[6] & 128 == 128;
    o.quiescence = enhanced;
    o.null_move = enhanced;
    o.killer_moves = enhanced;
    o.history_order = enhanced;
    o.late_move_reductions = enhanced;
    o.aspiration_windows = enhanced;
    o.time_management = enhanced;
    let stop = 1i32;
    if header[6] & 1 == 1 {
        o.stop = &stop; // stopped before it starts: still a legal move
    }
    if header[6] & 2 == 2 {
        o.struct_size -= 8; // an older, smaller struct
    }
    if header[6] & 4 == 4 {
        o.table_bytes = usize::MAX; // more than can be had: the search runs without
    }
    let root = root_moves(ctx, o.max_moves);
    if header[6] & 12 == 8 {
        o.max_moves = usize::MAX; // MM_ERR_OUT_OF_MEMORY
    }

    let pv_cap = header[7] as usize % 4;
    let mut pv = vec![0x5eed_i64; pv_cap];
    // SAFETY: an all-zero result is a valid value of plain fields.
    let mut out: mm_search_result = unsafe { std::mem::zeroed() };
    out.value = 0x5eed;
    // SAFETY: `game` and `o` are valid; `out` is writable; `pv` has `pv_cap` entries.
    let s = unsafe { mm_search(&game, &o, &mut out, pv.as_mut_ptr(), pv_cap) };
    assert!(g.stack.is_empty(), "every move played was taken back ({s:?})");
    if s != MM_OK {
        assert_eq!(out.value, 0x5eed, "untouched on error");
        assert!(pv.iter().all(|&m| m == 0x5eed));
        return (s, None, root);
    }
    (s, Some((out, pv)), root)
}

/// The same rogue game searched by MCTS (header byte 2's top bit): small limits, every
/// reward setting (2 is not one), and the answer's move among the root's.
fn run_mcts(data: &[u8], header: &[u8]) -> (mm_status, Option<(i64, bool, u64, u64)>, Vec<i64>) {
    let mut g = Rogue::new(data, header);
    let ctx = (&mut g as *mut Rogue).cast::<c_void>();
    let flags = header[1];
    let game = rogue_game(ctx, header);
    // SAFETY: all-zero options are then filled by the init function.
    let mut o: mm_mcts_options = unsafe { std::mem::zeroed() };
    // SAFETY: `o` is writable.
    unsafe { mm_mcts_options_init_sized(&mut o, size_of::<mm_mcts_options>()) };
    o.playouts = header[4] as u64 % 64; // 0: until proven or full
    o.max_nodes = 1 + header[3] as u64 % 64;
    o.reward = header[2] as u32 % 3;
    o.playout_depth = (header[3] / 64) as u32;
    o.max_moves = header[5] as usize % 6; // 0 is refused
    o.max_at_root = flags & 128 == 128;
    o.exploration = if flags & 64 == 64 { 0.0 } else { 1.4 };
    let stop = 1i32;
    if header[6] & 1 == 1 {
        o.stop = &stop;
    }
    let root = root_moves(ctx, o.max_moves);
    let mut m = std::ptr::null_mut();
    // SAFETY: `m` is writable.
    assert_eq!(unsafe { mm_mcts_new(&mut m) }, MM_OK);
    // SAFETY: an all-zero result is a valid value of plain fields.
    let mut out: mm_mcts_result = unsafe { std::mem::zeroed() };
    let mut moves_out = vec![mm_mcts_move::default(); 4];
    // SAFETY: live object, valid game and options, writable out, 4 root entries.
    let s = unsafe { mm_mcts_search(m, &game, &o, &mut out, moves_out.as_mut_ptr(), 4) };
    // SAFETY: from mm_mcts_new, freed once.
    unsafe { mm_mcts_free(m) };
    assert!(g.stack.is_empty(), "every move played was taken back ({s:?})");
    if s != MM_OK {
        return (s, None, root);
    }
    for entry in moves_out.iter().take(out.root_len.min(4)) {
        assert!(root.contains(&entry.mv), "a root move: {} of {root:?}", entry.mv);
    }
    let answer = (out.best_move, out.has_move, out.playouts, out.nodes);
    (s, Some(answer), root)
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 9 {
        return;
    }
    let (header, body) = data.split_at(8);
    if header[2] & 0x80 != 0 {
        let (s, answer, root) = run_mcts(body, header);
        if let Some((best, has_move, _, _)) = answer {
            assert!(!has_move || root.contains(&best), "a legal move: {best} of {root:?}");
        }
        // One seed, one thread: the same answer.
        let (s2, again, _) = run_mcts(body, header);
        assert_eq!((s, answer), (s2, again));
        return;
    }
    let (s, answer, root) = run(body, header);
    if let Some((out, pv)) = &answer {
        if out.has_move {
            assert!(root.contains(&out.best_move), "a legal move: {} of {root:?}", out.best_move);
            if !pv.is_empty() && out.pv_len > 0 {
                assert_eq!(pv[0], out.best_move);
            }
        }
        // A deterministic value is never INT_MIN or INT_MAX (those scores are refused);
        // a chance search takes any int32, so its value may be either.
        let integer = out.value_kind == MM_VALUE_INTEGER;
        assert!(
            !integer || (out.value != i32::MIN && out.value != i32::MAX),
            "{out:?} from {header:?}"
        );
    }
    // The same inputs give the same answer (time aside).
    let (s2, again, _) = run(body, header);
    assert_eq!(s, s2);
    if let (Some((a, pa)), Some((b, pb))) = (answer, again) {
        assert_eq!(
            (a.has_move, a.best_move, a.value, a.exact, a.proven, a.plies_to_end, a.depth),
            (b.has_move, b.best_move, b.value, b.exact, b.proven, b.plies_to_end, b.depth)
        );
        assert_eq!((a.pv_len, a.stats.nodes), (b.pv_len, b.stats.nodes));
        assert_eq!(pa, pb);
    }
});
