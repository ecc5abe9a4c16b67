//! Small games for the engine's tests, written plainly in Rust.
#![allow(dead_code)]

use minimax::search::{Fork, Game, GameError, Method, Move, Options, search};

/// Tic-tac-toe: X is MAX and moves first; 1 for a win by X, -1 for a loss, 0 for a draw.
#[derive(Clone)]
pub struct TicTacToe {
    pub cells: [i8; 9], // 1 X, -1 O, 0 empty
    pub moves_made: u32,
    /// Hash for the transposition table when true.
    pub hashing: bool,
}

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

impl TicTacToe {
    pub fn new() -> Self {
        TicTacToe {
            cells: [0; 9],
            moves_made: 0,
            hashing: true,
        }
    }
    pub fn winner(&self) -> i8 {
        for l in LINES {
            let s = self.cells[l[0]];
            if s != 0 && s == self.cells[l[1]] && s == self.cells[l[2]] {
                return s;
            }
        }
        0
    }
    fn to_move(&self) -> i8 {
        if self.moves_made % 2 == 0 { 1 } else { -1 }
    }
}

impl Game for TicTacToe {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        out.extend((0..9).filter(|&i| self.cells[i] == 0).map(|i| i as Move));
        Ok(())
    }
    fn play(&mut self, mv: Move) {
        self.cells[mv as usize] = self.to_move();
        self.moves_made += 1;
    }
    fn undo(&mut self, mv: Move) {
        self.cells[mv as usize] = 0;
        self.moves_made -= 1;
    }
    fn outcome(&mut self) -> Option<i32> {
        let w = self.winner();
        if w != 0 {
            Some(w as i32)
        } else if self.moves_made == 9 {
            Some(0)
        } else {
            None
        }
    }
    fn evaluate(&mut self) -> i32 {
        0
    }
    fn hash(&mut self) -> Option<u64> {
        self.hashing
            .then(|| self.cells.iter().fold(0u64, |h, &c| h * 3 + (c + 1) as u64))
    }
    fn max_to_move(&mut self) -> Option<bool> {
        Some(self.to_move() == 1)
    }
}

/// Connect Four, 7 x 6, played column by column; MAX moves first. The final score is
/// Pascal Pons' from the winner's side, `(43 - n) / 2` with `n` stones after the win.
#[derive(Clone)]
pub struct ConnectFour {
    pub board: [[i8; 6]; 7], // [column][row], 1 first player, -1 second
    pub heights: [usize; 7],
    pub n: usize,
    pub hashing: bool,
    pub bounding: bool,
}

impl ConnectFour {
    pub fn new() -> Self {
        ConnectFour {
            board: [[0; 6]; 7],
            heights: [0; 7],
            n: 0,
            hashing: true,
            bounding: true,
        }
    }
    /// Plays a string of column digits 1-7; `None` if a move is invalid or after a win.
    pub fn from_moves(s: &str) -> Option<Self> {
        let mut g = ConnectFour::new();
        for ch in s.chars() {
            let c = ch.to_digit(10)? as usize;
            if !(1..=7).contains(&c) || g.heights[c - 1] == 6 || g.last_move_won() {
                return None;
            }
            g.play(c as Move - 1);
        }
        (!g.last_move_won()).then_some(g)
    }
    fn player(&self) -> i8 {
        if self.n % 2 == 0 { 1 } else { -1 }
    }
    pub fn last_move_won(&self) -> bool {
        if self.n == 0 {
            return false;
        }
        let p = -self.player();
        for c in 0..7 {
            for r in 0..6 {
                if self.board[c][r] != p {
                    continue;
                }
                for (dc, dr) in [(1i32, 0i32), (0, 1), (1, 1), (1, -1)] {
                    let ok = (1..4).all(|k| {
                        let (cc, rr) = (c as i32 + dc * k, r as i32 + dr * k);
                        (0..7).contains(&cc)
                            && (0..6).contains(&rr)
                            && self.board[cc as usize][rr as usize] == p
                    });
                    if ok {
                        return true;
                    }
                }
            }
        }
        false
    }
}

impl Game for ConnectFour {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        out.extend(
            [3, 2, 4, 1, 5, 0, 6]
                .into_iter()
                .filter(|&c| self.heights[c as usize] < 6),
        );
        Ok(())
    }
    fn play(&mut self, mv: Move) {
        let c = mv as usize;
        self.board[c][self.heights[c]] = self.player();
        self.heights[c] += 1;
        self.n += 1;
    }
    fn undo(&mut self, mv: Move) {
        let c = mv as usize;
        self.heights[c] -= 1;
        self.board[c][self.heights[c]] = 0;
        self.n -= 1;
    }
    fn outcome(&mut self) -> Option<i32> {
        if self.last_move_won() {
            let score = (44 - self.n as i32) / 2; // (43 - stones before the winning one) / 2
            // The player who just moved won.
            return Some(if self.player() == 1 { -score } else { score });
        }
        (self.n == 42).then_some(0)
    }
    /// Stones in the centre column, first player minus second.
    fn evaluate(&mut self) -> i32 {
        self.board[3].iter().map(|&c| c as i32).sum()
    }
    fn hash(&mut self) -> Option<u64> {
        self.hashing.then(|| {
            let mut h = 0u64;
            for c in 0..7 {
                for r in 0..6 {
                    h = h
                        .wrapping_mul(3)
                        .wrapping_add((self.board[c][r] + 1) as u64);
                }
            }
            h
        })
    }
    fn max_to_move(&mut self) -> Option<bool> {
        Some(self.player() == 1)
    }
    /// The side to move wins at best with its next stone, the opponent with the one after.
    fn bounds(&mut self) -> Option<(i32, i32)> {
        if !self.bounding || self.n >= 42 {
            return None;
        }
        let mine = (43 - self.n as i32) / 2;
        let theirs = (42 - self.n as i32) / 2;
        Some(if self.player() == 1 {
            (-theirs, mine)
        } else {
            (-mine, theirs)
        })
    }
}

/// Connect Four as a bitboard (the layout John Tromp and Pascal Pons describe: a column
/// of 6 cells and a sentinel bit; the side to move's stones and all stones), for the
/// tests that play many games. Scores are the sign only: 1 when the first player won,
/// -1 when the second did, 0 for a draw; `evaluate` is 0.
#[derive(Clone, Copy, Debug)]
pub struct Bits {
    pub me: u64,
    pub mask: u64,
    pub stones: u32,
}

impl Bits {
    pub fn new() -> Self {
        Bits {
            me: 0,
            mask: 0,
            stones: 0,
        }
    }
    /// Plays a string of column digits 1-7; `None` if a move is invalid or after a win.
    pub fn from_moves(s: &str) -> Option<Self> {
        let mut b = Bits::new();
        for ch in s.chars() {
            let c = ch.to_digit(10)?.checked_sub(1)? as Move;
            if c >= 7 || !b.can_play(c) || b.won_by_last() {
                return None;
            }
            b.play(c);
        }
        (!b.won_by_last()).then_some(b)
    }
    fn can_play(&self, col: Move) -> bool {
        self.mask & (1 << (5 + col * 7)) == 0
    }
    pub fn won_by_last(&self) -> bool {
        let s = self.me ^ self.mask;
        [1, 6, 7, 8].iter().any(|&d| {
            let pairs = s & (s >> d);
            pairs & (pairs >> (2 * d)) != 0
        })
    }
}

impl Game for Bits {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        out.extend(
            [3, 2, 4, 1, 5, 0, 6]
                .into_iter()
                .filter(|&c| self.can_play(c)),
        );
        Ok(())
    }
    fn play(&mut self, mv: Move) {
        self.me ^= self.mask;
        self.mask |= self.mask + (1 << (mv * 7));
        self.stones += 1;
    }
    fn undo(&mut self, mv: Move) {
        let column = 0x3f << (mv * 7);
        let top = 1u64 << (63 - (self.mask & column).leading_zeros());
        self.mask ^= top;
        self.me ^= self.mask;
        self.stones -= 1;
    }
    fn outcome(&mut self) -> Option<i32> {
        if self.won_by_last() {
            // The side that just moved won: the first player if an odd count was played.
            return Some(if self.stones % 2 == 1 { 1 } else { -1 });
        }
        (self.stones == 42).then_some(0)
    }
    fn evaluate(&mut self) -> i32 {
        0
    }
    fn hash(&mut self) -> Option<u64> {
        Some((self.me + self.mask).wrapping_mul(0x9E37_79B9_7F4A_7C15))
    }
    fn max_to_move(&mut self) -> Option<bool> {
        Some(self.stones % 2 == 0)
    }
}

#[derive(Clone)]
/// The dice game a new user tried (issue 20): two players, a d6 each turn; add the roll
/// to your own total (above 10 busts to 0) or take it from the opponent's (not below 0);
/// the value is the first player's total minus the second's after `turns` turns.
pub struct DiceDuel {
    pub turns: u32,
    /// Turns played, whose parity says who moves.
    pub turn: u32,
    pub totals: [i32; 2],
    /// The roll waiting to be used; 0 before the roll.
    pub roll: i32,
    history: Vec<(i32, [i32; 2])>,
}

impl DiceDuel {
    pub fn new(turns: u32) -> Self {
        DiceDuel {
            turns,
            turn: 0,
            totals: [0, 0],
            roll: 0,
            // Room for a whole game's history, so that the memory tests' caps fall on
            // the search's allocations rather than the game's own.
            history: Vec::with_capacity(2 * turns as usize),
        }
    }
}

impl Game for DiceDuel {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        out.extend([0, 1]); // 0: add to own total, 1: take from the opponent's
        Ok(())
    }
    fn play(&mut self, mv: Move) {
        self.history.push((self.roll, self.totals));
        if self.roll == 0 {
            self.roll = mv as i32;
            return;
        }
        let me = (self.turn % 2) as usize;
        if mv == 0 {
            self.totals[me] += self.roll;
            if self.totals[me] > 10 {
                self.totals[me] = 0;
            }
        } else {
            self.totals[1 - me] = (self.totals[1 - me] - self.roll).max(0);
        }
        self.roll = 0;
        self.turn += 1;
    }
    fn undo(&mut self, _: Move) {
        let (roll, totals) = self.history.pop().unwrap();
        if self.roll == 0 && roll != 0 {
            self.turn -= 1;
        }
        (self.roll, self.totals) = (roll, totals);
    }
    fn outcome(&mut self) -> Option<i32> {
        (self.turn == self.turns).then(|| self.totals[0] - self.totals[1])
    }
    fn evaluate(&mut self) -> i32 {
        self.totals[0] - self.totals[1]
    }
    fn hash(&mut self) -> Option<u64> {
        let t = &self.totals;
        Some(((self.turn as u64 * 11 + t[0] as u64) * 11 + t[1] as u64) * 7 + self.roll as u64)
    }
    fn max_to_move(&mut self) -> Option<bool> {
        Some(self.turn % 2 == 0)
    }
    fn bounds(&mut self) -> Option<(i32, i32)> {
        Some((-10, 10))
    }
    fn is_chance(&mut self) -> bool {
        self.roll == 0 && self.turn < self.turns
    }
    fn outcomes(&mut self, out: &mut Vec<(Move, f64)>) -> Result<(), GameError> {
        out.extend((1..=6).map(|r| (r, 1.0)));
        Ok(())
    }
}

/// A game that gives no copy of itself for another thread: its search runs on one, and
/// says so.
pub struct NoCopy<G>(pub G);

impl<G> Fork for NoCopy<G> {
    fn fork(&self) -> Option<Self> {
        None
    }
}

impl<G: Game> Game for NoCopy<G> {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        self.0.moves(out)
    }
    fn play(&mut self, mv: Move) {
        self.0.play(mv)
    }
    fn undo(&mut self, mv: Move) {
        self.0.undo(mv)
    }
    fn outcome(&mut self) -> Option<i32> {
        self.0.outcome()
    }
    fn evaluate(&mut self) -> i32 {
        self.0.evaluate()
    }
    fn hash(&mut self) -> Option<u64> {
        self.0.hash()
    }
    fn max_to_move(&mut self) -> Option<bool> {
        self.0.max_to_move()
    }
}

/// `n` Connect Four positions, not over, from seeded random games of `min_plies` to
/// `max_plies` moves, as their moves and the engine's exact value (MAX's view): an
/// independent reference for the MCTS solver's proofs.
pub fn valued_positions(n: usize, min_plies: u64, max_plies: u64, seed: u64) -> Vec<(String, i32)> {
    let mut state = seed;
    let mut next = |below: u64| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) % below
    };
    let mut out = Vec::new();
    while out.len() < n {
        let plies = min_plies + next(max_plies - min_plies + 1);
        let mut g = ConnectFour::new();
        let mut moves = String::new();
        let mut over = false;
        for _ in 0..plies {
            let mut legal = Vec::new();
            g.moves(&mut legal).unwrap();
            let mv = legal[next(legal.len() as u64) as usize];
            g.play(mv);
            moves.push(char::from(b'1' + mv as u8));
            if g.outcome().is_some() {
                over = true;
                break;
            }
        }
        if !over {
            let mut o = Options {
                method: Method::Exact,
                ..Options::default()
            };
            out.push((moves, search(&mut g, &mut o).unwrap().value));
        }
    }
    out
}

/// Checks every proven root move of an MCTS search of the empty tic-tac-toe board against
/// the engine's exact value of the position after it.
pub fn tic_tac_toe_proofs_agree(root: &[minimax::search::mcts::MoveStats]) {
    for m in root {
        let mut g = TicTacToe::new();
        g.play(m.mv);
        let exact = search(&mut g, &mut Options::default()).unwrap().value;
        if let Some(p) = m.proven {
            assert_eq!(p, 0.5 + 0.5 * exact.signum() as f64, "move {}", m.mv);
        }
    }
}
