//! The benchmark's measuring stick (`examples/connect4/bare.rs`, run by `make bench` as
//! `connect4 --bare`) must solve, or its times would measure nothing: its scores are the
//! engine's exact scores on random positions.

#[path = "../../examples/connect4/bare.rs"]
mod bare;
use crate::common;
use crate::shared::connect4 as game;

use bare::Bare;
use common::Rng;
use game::Position;
use minimax::search::{Method, Options, search};

#[test]
fn the_bare_solver_finds_the_engines_exact_scores() {
    let mut bare = Bare::new();
    let lines = Rng::new(21).c4_lines(60, 14, 30, |line| Position::setup(line).is_ok());
    let (mut differ, mut nodes) = (Vec::new(), 0);
    for line in lines {
        let mut p = Position::setup(&line).unwrap();
        let opts = &mut Options {
            method: Method::Exact,
            iterative_deepening: false,
            refine_distance: false,
            table_bytes: 1 << 22,
            ..Options::default()
        };
        let engine = search(&mut p, opts).unwrap();
        assert!(engine.proven);
        let engine = if p.moves % 2 == 0 {
            engine.value
        } else {
            -engine.value
        };
        bare.clear();
        let score = bare.solve(&mut p);
        nodes += bare.nodes;
        if score != engine {
            differ.push((line, score, engine));
        }
    }
    assert!(differ.is_empty(), "bare and engine differ: {differ:?}");
    assert!(
        nodes > 60,
        "the positions were searched, not settled at the root"
    );
}
