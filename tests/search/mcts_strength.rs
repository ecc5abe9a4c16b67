//! MCTS plays Connect Four well with no evaluation (issue 21), in seeded games counted in
//! playouts, not time, so that the result is the same on every machine: 10,000 playouts
//! a move beat uniform random play in at least 95 of 100 games, and the engine's
//! alpha-beta at depth 4 with a zero evaluation in at least 70 of 100, colours
//! alternating.

use crate::common;
use crate::shared::games;

use games::Bits;
use minimax::search::mcts::{MctsOptions, mcts};
use minimax::search::{Game, Method, Move, Options, search};

const PLAYOUTS: u64 = 10_000;

/// A player: the move it chooses in `g`.
type Player<'a> = dyn FnMut(&mut Bits) -> Move + 'a;

/// Plays a game; 1 if the first player won, -1 if the second did, 0 for a draw.
fn play(first: &mut Player, second: &mut Player) -> i32 {
    let mut g = Bits::new();
    loop {
        if let Some(score) = g.outcome() {
            return score;
        }
        let mv = if g.stones % 2 == 0 {
            first(&mut g)
        } else {
            second(&mut g)
        };
        let mut legal = Vec::new();
        g.moves(&mut legal).unwrap();
        assert!(legal.contains(&mv), "{mv} is not legal");
        g.play(mv);
    }
}

fn mcts_player(seed: u64) -> impl FnMut(&mut Bits) -> Move {
    let mut n = 0;
    move |g: &mut Bits| {
        n += 1;
        let mut opts = MctsOptions {
            playouts: PLAYOUTS,
            seed: seed * 1000 + n,
            ..MctsOptions::default()
        };
        mcts(g, &mut opts).unwrap().best_move.unwrap()
    }
}

/// Counts MCTS's wins over 100 games against `other`, colours alternating.
fn match_against(mut other: impl FnMut(&mut Bits) -> Move) -> (u32, u32, u32) {
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    for game in 0..100u64 {
        let mut us = mcts_player(game);
        let ours_first = game % 2 == 0;
        let score = if ours_first {
            play(&mut us, &mut other)
        } else {
            -play(&mut other, &mut us)
        };
        match score.signum() {
            1 => wins += 1,
            0 => draws += 1,
            _ => losses += 1,
        }
    }
    (wins, draws, losses)
}

#[test]
fn mcts_beats_random_play() {
    let mut rng = common::Rng::new(2026);
    let random = move |g: &mut Bits| {
        let mut moves = Vec::new();
        g.moves(&mut moves).unwrap();
        moves[rng.range(0, moves.len() as i64 - 1) as usize]
    };
    let (w, d, l) = match_against(random);
    println!("MCTS ({PLAYOUTS} playouts a move) against random: {w} won, {d} drawn, {l} lost");
    assert!(w >= 95, "{w} wins of 100");
}

#[test]
fn mcts_beats_depth_4_alpha_beta_without_an_evaluation() {
    let alpha_beta = |g: &mut Bits| {
        let mut o = Options {
            method: Method::AlphaBeta,
            max_depth: 4,
            iterative_deepening: false,
            table_bytes: 0,
            ..Options::default()
        };
        search(g, &mut o).unwrap().best_move.unwrap()
    };
    let (w, d, l) = match_against(alpha_beta);
    println!(
        "MCTS ({PLAYOUTS} playouts a move) against alpha-beta depth 4: {w} won, {d} drawn, {l} lost"
    );
    assert!(w >= 70, "{w} wins of 100");
}
