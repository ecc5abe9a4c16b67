//! The games compiled in (`NativeGame` in JavaScript): searched inside the module, with
//! no call into JavaScript a node. Connect Four, Othello and Hex are the examples' own
//! types and tic-tac-toe the Python package's, shared by path. A position is the line of
//! moves played from the start, as a string: Connect Four's column digits 1-7 (Pons'
//! notation, as the Python package takes it), the others' move numbers separated by
//! spaces or commas (tic-tac-toe's cells 0-8 row by row, Othello's squares 8 * row +
//! column and 64 to pass, Hex's cells size * row + column, Breakthrough's 3 * from +
//! direction, its squares 8 * row + column seen from the side to move, which moves up the
//! rows: the board is turned for the second player; direction 0 is up and left, 1
//! straight up, 2 up and right).

#[path = "../../examples/common/breakthrough.rs"]
mod breakthrough;
#[path = "../../examples/connect4/game.rs"]
mod connect4;
#[path = "../../examples/hex/game.rs"]
mod hex;
#[path = "../../examples/common/othello.rs"]
mod othello;
#[path = "../../python/src/games/tictactoe.rs"]
mod tictactoe;

use minimax::search::{Game, Move};
use wasm_bindgen::prelude::*;

use crate::errors::{Code, error};

/// The games, with their state.
#[derive(Clone)]
pub enum Kind {
    TicTacToe(tictactoe::TicTacToe),
    ConnectFour(Box<connect4::Position>),
    Othello(othello::Othello),
    Hex(hex::Hex),
    Breakthrough(breakthrough::Breakthrough),
}

/// The names `NativeGame` takes.
pub const NAMES: &str = "tic_tac_toe, connect_four, othello, hex, breakthrough";

impl Kind {
    /// The game as the engine sees it.
    pub fn game(&mut self) -> &mut dyn Game {
        match self {
            Kind::TicTacToe(g) => g,
            Kind::ConnectFour(g) => &mut **g,
            Kind::Othello(g) => g,
            Kind::Hex(g) => g,
            Kind::Breakthrough(g) => g,
        }
    }
}

/// A game compiled into the module, at a position: what a page needs to show it and
/// take a person's moves (the legal moves, the board, the result), and the searches.
#[wasm_bindgen]
#[derive(Clone)]
pub struct NativeGame {
    name: &'static str,
    kind: Kind,
    /// Hex's size; 7 for Connect Four's width, 3 and 8 for the others.
    size: usize,
    /// The moves played from the start.
    line: Vec<Move>,
}

#[wasm_bindgen]
impl NativeGame {
    /// `name` is one of "tic_tac_toe", "connect_four", "othello" or "hex" ("hex" or
    /// "hex:N" for a board of N x N, 1 to 19; 7 by default); `position` the moves played
    /// from the start (see the module's doc). A bad name, a move that is not legal or a
    /// game already over where Connect Four's line continues is a `MinimaxError`.
    #[wasm_bindgen(constructor)]
    pub fn new(name: &str, position: Option<String>) -> Result<NativeGame, JsValue> {
        let (base, arg) = name.split_once(':').unwrap_or((name, ""));
        let (name, kind, size) = match (base, arg) {
            ("tic_tac_toe", "") => ("tic_tac_toe", Kind::TicTacToe(Default::default()), 3),
            ("connect_four", "") => ("connect_four", Kind::ConnectFour(empty_connect4()), 7),
            ("othello", "") => ("othello", Kind::Othello(othello::Othello::new()), 8),
            ("breakthrough", "") => (
                "breakthrough",
                Kind::Breakthrough(breakthrough::Breakthrough::new()),
                8,
            ),
            ("hex", _) => {
                let n = if arg.is_empty() {
                    Ok(7)
                } else {
                    arg.parse::<usize>()
                };
                match n {
                    Ok(n) if (1..=19).contains(&n) => ("hex", Kind::Hex(hex::Hex::new(n)), n),
                    _ => {
                        return Err(error(
                            Code::BadGame,
                            format!("the game {name:?}: Hex's size is 1 to 19, as in \"hex:9\""),
                        ));
                    }
                }
            }
            _ => {
                return Err(error(
                    Code::BadGame,
                    format!("no game {name:?} is compiled in: {NAMES}"),
                ));
            }
        };
        let mut g = NativeGame {
            name,
            kind,
            size,
            line: Vec::new(),
        };
        let position = position.unwrap_or_default();
        let moves = g.parse(&position)?;
        for (i, mv) in moves.into_iter().enumerate() {
            g.play_checked(mv).map_err(|why| {
                error(
                    Code::BadPosition,
                    format!("the position {position:?}: move {} ({mv}) {why}", i + 1),
                )
            })?;
        }
        Ok(g)
    }

    /// The game's name.
    #[wasm_bindgen(getter)]
    pub fn name(&self) -> String {
        self.name.into()
    }

    /// The moves played from the start, as `new` takes them.
    #[wasm_bindgen(getter)]
    pub fn position(&self) -> String {
        match self.kind {
            Kind::ConnectFour(_) => self.line.iter().map(|c| format!("{}", c + 1)).collect(),
            _ => {
                let moves: Vec<String> = self.line.iter().map(|m| m.to_string()).collect();
                moves.join(" ")
            }
        }
    }

    /// The moves played from the start, as numbers.
    #[wasm_bindgen(getter)]
    pub fn line(&self) -> Vec<f64> {
        self.line.iter().map(|&m| m as f64).collect()
    }

    /// The board's columns and rows.
    #[wasm_bindgen(getter)]
    pub fn width(&self) -> usize {
        self.size
    }

    #[wasm_bindgen(getter)]
    pub fn height(&self) -> usize {
        match self.kind {
            Kind::ConnectFour(_) => 6,
            _ => self.size,
        }
    }

    /// The player to move: 0 the first (X, Black, Red), 1 the second.
    #[wasm_bindgen(getter, js_name = toMove)]
    pub fn to_move(&self) -> u8 {
        // Othello's passes are moves of the line, so the parity holds there too.
        (self.line.len() % 2) as u8
    }

    /// The moves the player to move may make, in the game's numbers (every legal move:
    /// Connect Four's search leaves out moves that lose at once, a person may not).
    #[wasm_bindgen(js_name = legalMoves)]
    pub fn legal_moves(&mut self) -> Vec<f64> {
        self.legal().into_iter().map(|m| m as f64).collect()
    }

    /// Plays `mv` if it is legal; otherwise a `MinimaxError` (code "ILLEGAL_MOVE") naming
    /// the move and the legal ones.
    pub fn play(&mut self, mv: f64) -> Result<(), JsValue> {
        let legal = self.legal();
        if mv.fract() != 0.0 || !legal.contains(&(mv as Move)) {
            return Err(error(
                Code::IllegalMove,
                format!(
                    "{mv} is not a legal move in {} at {:?}: the legal moves are {legal:?}",
                    self.name,
                    self.position()
                ),
            ));
        }
        // The rules list no move once the game is over: the move is checked.
        self.apply(mv as Move);
        Ok(())
    }

    /// Takes back the last move; false if there is none.
    pub fn undo(&mut self) -> bool {
        let Some(mv) = self.line.pop() else {
            return false;
        };
        self.kind.game().undo(mv);
        true
    }

    /// The result once the game is over: 1 the first player won, -1 the second, 0 a
    /// draw; `undefined` while it goes on.
    pub fn winner(&mut self) -> Option<i32> {
        let first_to_move = self.to_move() == 0;
        let g = self.kind.game();
        let score = g.outcome()?;
        let side_view = matches!(g.score_view(), minimax::search::ScoreView::SideToMove);
        let first = if side_view && !first_to_move {
            -score
        } else {
            score
        };
        Some(first.signum())
    }

    /// The board, a cell a number row by row from the top: 0 empty, 1 the first
    /// player's, 2 the second's.
    pub fn board(&self) -> Vec<u8> {
        match &self.kind {
            Kind::Othello(g) => {
                let (mover, other) = g.sides();
                let (black, white) = if self.to_move() == 0 {
                    (mover, other)
                } else {
                    (other, mover)
                };
                (0..64)
                    .map(|sq| {
                        if black >> sq & 1 == 1 {
                            1
                        } else if white >> sq & 1 == 1 {
                            2
                        } else {
                            0
                        }
                    })
                    .collect()
            }
            Kind::Breakthrough(g) => {
                // Seen from the side to move, which moves up: turned back for the second.
                let (me, opp) = g.sides();
                let (first, second) = if g.first_to_move() {
                    (me, opp)
                } else {
                    (opp.swap_bytes(), me.swap_bytes())
                };
                // Row 7 (the second player's home) at the top.
                (0..64)
                    .map(|i| {
                        let sq = (7 - i / 8) * 8 + i % 8;
                        if first >> sq & 1 == 1 {
                            1
                        } else if second >> sq & 1 == 1 {
                            2
                        } else {
                            0
                        }
                    })
                    .collect()
            }
            Kind::ConnectFour(_) => {
                // Column c, filled from the bottom row (row 5 at the top of the list's end).
                let mut cells = vec![0u8; 42];
                let mut heights = [0usize; 7];
                for (i, &c) in self.line.iter().enumerate() {
                    let c = c as usize;
                    let row = 5 - heights[c];
                    heights[c] += 1;
                    cells[row * 7 + c] = 1 + (i % 2) as u8;
                }
                cells
            }
            _ => {
                let mut cells = vec![0u8; self.size * self.size];
                for (i, &m) in self.line.iter().enumerate() {
                    cells[m as usize] = 1 + (i % 2) as u8;
                }
                cells
            }
        }
    }

    /// A copy, to search or play on without touching this one.
    #[wasm_bindgen(js_name = clone)]
    pub fn copy(&self) -> NativeGame {
        self.clone()
    }
}

impl NativeGame {
    /// The game for the engine.
    pub fn kind(&self) -> &Kind {
        &self.kind
    }

    /// The legal moves, by the rules.
    fn legal(&mut self) -> Vec<Move> {
        let mut out = Vec::new();
        match &mut self.kind {
            Kind::ConnectFour(p) => {
                if !p.over() && self.line.len() < 42 {
                    let mut heights = [0; 7];
                    for &c in &self.line {
                        heights[c as usize] += 1;
                    }
                    out.extend((0..7).filter(|&c| heights[c as usize] < 6));
                }
            }
            Kind::Breakthrough(g) => {
                let mut moves = Vec::new();
                g.legal(&mut moves);
                out.extend(moves.into_iter().map(Move::from));
                out.sort_unstable();
            }
            Kind::Othello(g) => {
                let mut squares = Vec::new();
                g.legal(&mut squares);
                out.extend(squares.into_iter().map(Move::from));
                out.sort_unstable();
            }
            other => {
                let g = other.game();
                if g.outcome().is_none() {
                    let _ = g.moves(&mut out);
                }
                out.sort_unstable();
            }
        }
        out
    }

    /// Plays `mv` after checking it against the rules.
    fn play_checked(&mut self, mv: Move) -> Result<(), String> {
        if self.kind.game().outcome().is_some()
            || matches!(&self.kind, Kind::ConnectFour(p) if p.over())
        {
            return Err("comes after the end of the game".into());
        }
        let legal = self.legal();
        if !legal.contains(&mv) {
            return Err(format!("is not legal there (legal: {legal:?})"));
        }
        self.apply(mv);
        Ok(())
    }

    /// Plays `mv`, a move already checked.
    fn apply(&mut self, mv: Move) {
        self.kind.game().play(mv);
        self.line.push(mv);
    }

    /// The moves of a position string.
    fn parse(&self, position: &str) -> Result<Vec<Move>, JsValue> {
        let bad = |what: String| {
            error(
                Code::BadPosition,
                format!("the position {position:?}: {what}"),
            )
        };
        if let Kind::ConnectFour(_) = self.kind {
            return position
                .trim()
                .chars()
                .map(|ch| match ch {
                    '1'..='7' => Ok(Move::from(ch as u8 - b'1')),
                    _ => Err(bad(format!("{ch:?} is not a column digit 1-7"))),
                })
                .collect();
        }
        position
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|s| !s.is_empty())
            .map(|s| {
                s.parse::<Move>()
                    .map_err(|_| bad(format!("{s:?} is not a move number")))
            })
            .collect()
    }
}

fn empty_connect4() -> Box<connect4::Position> {
    Box::new(connect4::Position::setup("").expect("the empty board"))
}
