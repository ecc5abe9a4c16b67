//! Two small dice games whose turns pass across chance steps, for checking MCTS and the
//! chance searches against exact values: Pig with a turn limit (two players, `max_to_move`
//! given) and a one-player race (with or without `max_to_move`). Both score +1, 0 or -1
//! for MAX, and `bounds` say so. Also `exact`, a plain expectimax over them written apart
//! from the library's search: the reference the tests and the `dice` example use.
#![allow(dead_code)]

use std::collections::HashMap;

use minimax::search::{Game, GameError, Move};

/// Pig with a turn limit: the player to move rolls a die (move 0) or holds (move 1). A
/// roll of 1 loses the turn's total and passes the turn; another roll adds to it; holding
/// banks it and passes the turn. Reaching `goal` with bank plus turn total wins at once;
/// after `turns` turns in all, the higher bank wins (equal banks draw). Player 0 is MAX.
#[derive(Clone, Debug)]
pub struct Pig {
    pub goal: i32,
    pub turns: u32,
    pub banks: [i32; 2],
    /// The turn's total so far.
    pub total: i32,
    /// Turns ended so far; its parity is the player to move.
    pub turn: u32,
    /// Whether a roll is on its way (a chance node).
    pub rolling: bool,
    history: Vec<(i32, u32, bool, [i32; 2])>,
}

impl Pig {
    pub fn new(goal: i32, turns: u32) -> Pig {
        Pig {
            goal,
            turns,
            banks: [0, 0],
            total: 0,
            turn: 0,
            rolling: false,
            history: Vec::new(),
        }
    }

    /// A position: the banks, the turn's total and the turns ended (no roll under way).
    pub fn at(goal: i32, turns: u32, banks: [i32; 2], total: i32, turn: u32) -> Pig {
        Pig {
            banks,
            total,
            turn,
            ..Pig::new(goal, turns)
        }
    }

    fn mover(&self) -> usize {
        (self.turn % 2) as usize
    }

    /// The position as a key, for `exact`'s memo.
    pub fn key(&self) -> u64 {
        let b = &self.banks;
        [
            b[0] as u64,
            b[1] as u64,
            self.total as u64,
            self.turn as u64,
            self.rolling as u64,
        ]
        .iter()
        .fold(0, |k, &x| k * 64 + x)
    }
}

impl Game for Pig {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        out.extend([0, 1]);
        Ok(())
    }
    fn play(&mut self, mv: Move) {
        self.history
            .push((self.total, self.turn, self.rolling, self.banks));
        let me = self.mover();
        match (self.rolling, mv) {
            (true, 1) => (self.total, self.turn, self.rolling) = (0, self.turn + 1, false),
            (true, r) => (self.total, self.rolling) = (self.total + r as i32, false),
            (false, 0) => self.rolling = true,
            (false, _) => {
                self.banks[me] += self.total;
                (self.total, self.turn) = (0, self.turn + 1);
            }
        }
    }
    fn undo(&mut self, _: Move) {
        let h = self.history.pop().expect("a move to undo");
        (self.total, self.turn, self.rolling, self.banks) = h;
    }
    fn outcome(&mut self) -> Option<i32> {
        let me = self.mover();
        if self.banks[me] + self.total >= self.goal {
            return Some(if me == 0 { 1 } else { -1 });
        }
        (self.turn >= self.turns).then(|| (self.banks[0] - self.banks[1]).signum())
    }
    fn evaluate(&mut self) -> i32 {
        0
    }
    fn hash(&mut self) -> Option<u64> {
        Some(self.key().wrapping_mul(0x9E37_79B9_7F4A_7C15))
    }
    fn max_to_move(&mut self) -> Option<bool> {
        Some(self.mover() == 0)
    }
    fn bounds(&mut self) -> Option<(i32, i32)> {
        Some((-1, 1))
    }
    fn is_chance(&mut self) -> bool {
        self.rolling
    }
    fn outcomes(&mut self, out: &mut Vec<(Move, f64)>) -> Result<(), GameError> {
        out.extend((1..=6).map(|r| (r, 1.0)));
        Ok(())
    }
}

/// A race for one player: from square 0, reach `goal` within `turns` turns (+1) or not
/// (-1). Each turn the player walks (move 0: 1 or 2 squares, even odds) or runs (move
/// 1: a die; 1 or 2 sends the runner back 2 squares, not below 0; 3 to 6 moves that
/// many). A turn is a move then a draw, so that the sides, if they alternated at every
/// ply, would give MAX every move: the game says so with `max_to_move` when
/// `says_turn`, and leaves it to that rule when not.
#[derive(Clone, Debug)]
pub struct Race {
    pub goal: i32,
    pub turns: u32,
    pub square: i32,
    /// Turns ended.
    pub turn: u32,
    /// The move whose draw is on its way (a chance node).
    pub pending: Option<Move>,
    pub says_turn: bool,
    history: Vec<(i32, u32, Option<Move>)>,
}

impl Race {
    pub fn new(goal: i32, turns: u32, says_turn: bool) -> Race {
        Race {
            goal,
            turns,
            square: 0,
            turn: 0,
            pending: None,
            says_turn,
            history: Vec::new(),
        }
    }

    /// The position as a key, for `exact`'s memo.
    pub fn key(&self) -> u64 {
        let pending = self.pending.map_or(0, |m| m as u64 + 1);
        (self.square as u64 * 64 + self.turn as u64) * 4 + pending
    }
}

impl Game for Race {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        out.extend([0, 1]);
        Ok(())
    }
    fn play(&mut self, mv: Move) {
        self.history.push((self.square, self.turn, self.pending));
        match self.pending.take() {
            None => self.pending = Some(mv),
            Some(0) => (self.square, self.turn) = (self.square + mv as i32, self.turn + 1),
            Some(_) => {
                let to = match mv {
                    1 | 2 => (self.square - 2).max(0),
                    r => self.square + r as i32,
                };
                (self.square, self.turn) = (to, self.turn + 1);
            }
        }
    }
    fn undo(&mut self, _: Move) {
        (self.square, self.turn, self.pending) = self.history.pop().expect("a move to undo");
    }
    fn outcome(&mut self) -> Option<i32> {
        if self.square >= self.goal {
            return Some(1);
        }
        (self.turn >= self.turns).then_some(-1)
    }
    fn evaluate(&mut self) -> i32 {
        0
    }
    fn hash(&mut self) -> Option<u64> {
        Some(self.key().wrapping_mul(0x9E37_79B9_7F4A_7C15))
    }
    fn max_to_move(&mut self) -> Option<bool> {
        self.says_turn.then_some(true)
    }
    fn bounds(&mut self) -> Option<(i32, i32)> {
        Some((-1, 1))
    }
    fn is_chance(&mut self) -> bool {
        self.pending.is_some()
    }
    fn outcomes(&mut self, out: &mut Vec<(Move, f64)>) -> Result<(), GameError> {
        match self.pending {
            Some(0) => out.extend([(1, 1.0), (2, 1.0)]),
            _ => out.extend((1..=6).map(|r| (r, 1.0))),
        }
        Ok(())
    }
}

/// What `exact` needs of a game besides [`Game`]: a key of the position for its memo.
pub trait Keyed: Game {
    fn key_of(&self) -> u64;
}

impl Keyed for Pig {
    fn key_of(&self) -> u64 {
        self.key()
    }
}

impl Keyed for Race {
    fn key_of(&self) -> u64 {
        self.key()
    }
}

/// The exact expected score (MAX's view) of the position by plain expectimax, written
/// apart from the library: MAX maximises, MIN minimises, a chance node averages its
/// outcomes by weight; MAX is to move where `max_to_move` says so, and where the game
/// does not say, the sides alternate at every ply, chance plies included. Memoised by
/// key and side; no pruning.
pub fn exact<G: Keyed>(game: &mut G, max_side: bool) -> f64 {
    fn go<G: Keyed>(g: &mut G, max_side: bool, memo: &mut HashMap<(u64, bool), f64>) -> f64 {
        if let Some(s) = g.outcome() {
            return s as f64;
        }
        let key = (g.key_of(), max_side);
        if let Some(&v) = memo.get(&key) {
            return v;
        }
        let v = if g.is_chance() {
            let mut outs = Vec::new();
            g.outcomes(&mut outs).unwrap();
            let total: f64 = outs.iter().map(|o| o.1).sum();
            let mut sum = 0.0;
            for (mv, w) in outs {
                g.play(mv);
                let next = g.max_to_move().unwrap_or(!max_side);
                sum += w / total * go(g, next, memo);
                g.undo(mv);
            }
            sum
        } else {
            let mut moves = Vec::new();
            g.moves(&mut moves).unwrap();
            let mut best = if max_side { f64::MIN } else { f64::MAX };
            for mv in moves {
                g.play(mv);
                let next = g.max_to_move().unwrap_or(!max_side);
                let v = go(g, next, memo);
                g.undo(mv);
                best = if max_side { best.max(v) } else { best.min(v) };
            }
            best
        };
        memo.insert(key, v);
        v
    }
    let max_side = game.max_to_move().unwrap_or(max_side);
    go(game, max_side, &mut HashMap::new())
}
