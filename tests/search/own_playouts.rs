//! The games' own playouts (`Game::playout`, which the n-player MCTS uses instead of
//! stepping through `play` and `undo`) against uniform random play. Pig's against the
//! exact chances, computed here apart by a recursion over its rules as OpenSpiel states
//! them: each player's share of the wins and of the games cut off at the horizon, from a
//! position, must match the exact ones within 4.5 standard errors over 40,000 seeds.
//! Quoridor's, whose chances no recursion reaches, against playouts made here through
//! the game's `moves`, `play` and `undo` (whose moves `python/tests/test_players.py`
//! checks against OpenSpiel's), within 4.5 standard errors of the difference; Hearts'
//! the same way, by each player's mean score.

use crate::shared::hearts;
#[path = "../../examples/players/pig.rs"]
mod pig;
#[path = "../../examples/players/quoridor.rs"]
mod quoridor;

use std::collections::HashMap;

use hearts::Hearts;
use minimax::search::{Game, Move};
use pig::Pig;
use quoridor::Quoridor;

const PLAYERS: usize = 3;
const WIN: i32 = 8;
const HORIZON: u32 = 30;
const FACES: i32 = 6;

/// A position of Pig, written apart: banks, the turn's total, the mover, whether a
/// roll is under way, and the steps made.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Plain {
    banks: [i32; PLAYERS],
    total: i32,
    mover: usize,
    rolling: bool,
    steps: u32,
}

impl Plain {
    fn start() -> Plain {
        Plain {
            banks: [0; PLAYERS],
            total: 0,
            mover: 0,
            rolling: false,
            steps: 0,
        }
    }

    /// The state after a step: a move (0 roll, 1 stop), or a face less one while rolling.
    fn after(mut self, step: i32) -> Plain {
        let next = (self.mover + 1) % PLAYERS;
        if self.rolling {
            match step {
                0 => (self.total, self.mover) = (0, next),
                k => self.total += k + 1,
            }
            self.rolling = false;
        } else if step == 0 {
            self.rolling = true;
        } else {
            self.banks[self.mover] += self.total;
            (self.total, self.mover) = (0, next);
        }
        self.steps += 1;
        self
    }
}

/// The chances of each final result under uniform random play: player `p` wins
/// (`[p]`), or the horizon comes first (`[PLAYERS]`).
fn chances(s: Plain, memo: &mut HashMap<Plain, [f64; PLAYERS + 1]>) -> [f64; PLAYERS + 1] {
    if let Some(&c) = memo.get(&s) {
        return c;
    }
    let mut out = [0.0; PLAYERS + 1];
    if let Some(w) = s.banks.iter().position(|&b| b >= WIN) {
        out[w] = 1.0;
    } else if s.steps >= HORIZON {
        out[PLAYERS] = 1.0;
    } else {
        let steps: Vec<(i32, f64)> = if s.rolling {
            (0..FACES).map(|k| (k, 1.0 / FACES as f64)).collect()
        } else if s.banks[s.mover] + s.total >= WIN {
            vec![(1, 1.0)]
        } else {
            vec![(0, 0.5), (1, 0.5)]
        };
        for (step, p) in steps {
            let c = chances(s.after(step), memo);
            for i in 0..=PLAYERS {
                out[i] += p * c[i];
            }
        }
    }
    memo.insert(s, out);
    out
}

/// The game's playouts' shares of each result from the position after `line`, against
/// the exact chances; the game unchanged by them.
fn playouts_match(line: &[Move]) {
    let mut g = Pig::with(PLAYERS, WIN, HORIZON, FACES as u32);
    let mut plain = Plain::start();
    for &mv in line {
        g.play(mv);
        plain = plain.after(mv as i32);
    }
    let before = format!("{g:?}");
    let exact = chances(plain, &mut HashMap::new());
    let n = 40_000u64;
    let mut counts = [0u64; PLAYERS + 1];
    let mut scores = [0; PLAYERS];
    for seed in 0..n {
        scores.fill(0);
        assert!(g.playout(seed, &mut scores), "a playout to the end");
        match scores.iter().position(|&s| s == PLAYERS as i32 - 1) {
            Some(w) => {
                assert!(scores.iter().enumerate().all(|(p, &s)| p == w || s == -1));
                counts[w] += 1;
            }
            None => {
                assert_eq!(scores, [0; PLAYERS], "a game cut off at the horizon");
                counts[PLAYERS] += 1;
            }
        }
    }
    assert_eq!(
        format!("{g:?}"),
        before,
        "the playouts left the game as it was"
    );
    for i in 0..=PLAYERS {
        let share = counts[i] as f64 / n as f64;
        let se = (exact[i] * (1.0 - exact[i]) / n as f64).sqrt().max(1e-9);
        assert!(
            (share - exact[i]).abs() <= 4.5 * se,
            "after {line:?}, result {i}: {share:.4} against {:.4} exact ({counts:?})",
            exact[i]
        );
    }
}

#[test]
#[cfg_attr(miri, ignore = "160,000 playouts and a memo of many states")]
fn playouts_from_the_start_match_the_exact_chances() {
    playouts_match(&[]);
}

#[test]
#[cfg_attr(miri, ignore = "160,000 playouts and a memo of many states")]
fn playouts_mid_roll_and_near_the_end_match_the_exact_chances() {
    // Player 0 rolls a 5 and stops; player 1 rolls, the die in the air.
    playouts_match(&[0, 4, 1, 0]);
    // Player 0 rolls two 5s: 10 on the turn, past the win, so stopping is its only move.
    playouts_match(&[0, 4, 0, 4]);
    // Near the horizon: many throws of one.
    let mut line = Vec::new();
    for _ in 0..12 {
        line.extend([0, 0]);
    }
    playouts_match(&line);
}

/// Each result's count (player `p` wins at `[p]`, a draw at `[players]`) over `n`
/// playouts of `play`, which writes the final scores.
fn tally(players: usize, n: u64, mut play: impl FnMut(u64, &mut [i32])) -> Vec<u64> {
    let mut counts = vec![0; players + 1];
    let mut scores = vec![0; players];
    for seed in 0..n {
        scores.fill(0);
        play(seed, &mut scores);
        match scores.iter().position(|&s| s == players as i32 - 1) {
            Some(w) => counts[w] += 1,
            None => {
                assert!(scores.iter().all(|&s| s == 0), "{scores:?}");
                counts[players] += 1;
            }
        }
    }
    counts
}

/// A uniform random playout through `moves`, `play` and `undo`, written here.
fn stepped<G: Game>(g: &mut G, seed: u64, out: &mut [i32]) {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let (mut line, mut moves) = (Vec::new(), Vec::new());
    while !g.player_scores(out) {
        moves.clear();
        g.moves(&mut moves).unwrap();
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let mv = moves[(x % moves.len() as u64) as usize];
        g.play(mv);
        line.push(mv);
    }
    while let Some(mv) = line.pop() {
        g.undo(mv);
    }
}

#[test]
#[cfg_attr(miri, ignore = "6,000 playouts of a few hundred moves each")]
fn quoridor_playouts_match_uniform_random_play() {
    for (players, line) in [
        (3, vec![]),
        (4, vec![2, 70, 38]),
        (3, vec![2, 70, 38, 2, 153]),
    ] {
        let mut g = Quoridor::new(players);
        for &mv in &line {
            g.play(mv);
        }
        let before = format!("{g:?}");
        let n = 1500;
        let own = tally(players, n, |seed, out| assert!(g.playout(seed, out)));
        assert_eq!(
            format!("{g:?}"),
            before,
            "the playouts left the game as it was"
        );
        let plain = tally(players, n, |seed, out| stepped(&mut g, seed, out));
        for i in 0..=players {
            let (a, b) = (own[i] as f64 / n as f64, plain[i] as f64 / n as f64);
            let p = (a + b) / 2.0;
            let se = (p * (1.0 - p) * 2.0 / n as f64).sqrt().max(1e-9);
            assert!(
                (a - b).abs() <= 4.5 * se,
                "{players} players after {line:?}, result {i}: {own:?} against {plain:?}"
            );
        }
    }
}

#[test]
#[cfg_attr(miri, ignore = "12,000 playouts of a deal each")]
fn hearts_playouts_match_uniform_random_play() {
    // From the deal's start, mid-passing, and two tricks into the play.
    for (seed, plies) in [(1u64, 0usize), (2, 5), (3, 20)] {
        let mut g = Hearts::new();
        let mut x = seed;
        let mut left = plies;
        loop {
            let mut moves = Vec::new();
            if g.is_chance() {
                let mut outs = Vec::new();
                g.outcomes(&mut outs).unwrap();
                moves.extend(outs.iter().map(|o| o.0));
            } else if left == 0 {
                break;
            } else {
                left -= 1;
                g.moves(&mut moves).unwrap();
            }
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            g.play(moves[((x >> 33) % moves.len() as u64) as usize]);
        }
        let before = format!("{g:?}");
        let n = 3000;
        let mut own = [0.0f64; 4];
        let mut own_sq = [0.0f64; 4];
        let mut plain = [0.0f64; 4];
        let mut plain_sq = [0.0f64; 4];
        let mut scores = [0; 4];
        for seed in 0..n {
            assert!(g.playout(seed, &mut scores));
            for p in 0..4 {
                own[p] += scores[p] as f64;
                own_sq[p] += (scores[p] * scores[p]) as f64;
            }
            stepped(&mut g, seed, &mut scores);
            for p in 0..4 {
                plain[p] += scores[p] as f64;
                plain_sq[p] += (scores[p] * scores[p]) as f64;
            }
        }
        assert_eq!(
            format!("{g:?}"),
            before,
            "the playouts left the game as it was"
        );
        let n = n as f64;
        for p in 0..4 {
            let (a, b) = (own[p] / n, plain[p] / n);
            let var = (own_sq[p] / n - a * a) + (plain_sq[p] / n - b * b);
            let se = (var / n).sqrt();
            assert!(
                (a - b).abs() <= 4.5 * se,
                "seed {seed}, player {p}: {a:.2} against {b:.2} (se {se:.3})"
            );
        }
    }
}
