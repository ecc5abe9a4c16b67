//! Dots and Boxes (examples/dots, a game with extra turns and many transpositions)
//! against an independent brute-force solve of every edge set: the engine's value from
//! random positions of the 2x2 and 2x3 boards, by each method, on one thread and two.

#[path = "../../examples/dots/game.rs"]
mod game;

use game::Dots;
use minimax::search::{Game, Method, Options, search_parallel};

#[test]
fn dots_and_boxes_values_match_brute_force() {
    let mut seed = 0x9E37_79B9_u64;
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    for (rows, cols) in [(2, 2), (2, 3)] {
        let board = Dots::new(rows, cols);
        let mut memo = vec![i8::MIN; 1 << board.edge_count()];
        let mut checked = 0;
        for _ in 0..12 {
            // A random position some edges in.
            let mut g = board.clone();
            for _ in 0..next(board.edge_count() - 2) {
                let mut moves = Vec::new();
                g.moves(&mut moves).unwrap();
                g.play(moves[next(moves.len())]);
            }
            let net = board.brute_force(g.edges, &mut memo);
            let want = g.diff + if g.max_turn { net } else { -net };
            for method in [Method::AlphaBeta, Method::Pvs, Method::Exact] {
                for threads in [1, 2] {
                    let mut o = Options {
                        method,
                        threads,
                        table_bytes: 1 << 20,
                        ..Options::default()
                    };
                    let r = search_parallel(&mut g.clone(), &mut o).unwrap();
                    assert!(r.proven);
                    assert_eq!(r.value, want, "{rows}x{cols} {method:?} {threads} threads");
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 72);
    }
}
