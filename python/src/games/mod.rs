//! Games written in Rust (`libminimax.games`): searched natively, the GIL released and
//! no call into Python. Connect Four, Hex, 2048 and Othello are the examples' and the
//! matches' own types, shared by path; tic-tac-toe is this package's. Each is one
//! Python class (`NativeGame`, subclassed by name in `libminimax/games.py`) that also
//! plays through the game protocol, checked: a move that is not legal is a `ValueError`.

#[path = "../../../examples/players/chinese_checkers.rs"]
mod chinese_checkers;
#[path = "../../../examples/connect4/game.rs"]
mod connect4;
#[path = "../../../examples/star/game2048.rs"]
mod game2048;
#[path = "../../../examples/hidden/hearts.rs"]
mod hearts;
#[path = "../../../examples/hex/game.rs"]
mod hex;
#[path = "../../../examples/hidden/oh_hell.rs"]
mod oh_hell;
#[path = "../../../examples/common/othello.rs"]
mod othello;
#[path = "../../../examples/players/pig.rs"]
mod pig;
#[path = "../../../examples/players/quoridor.rs"]
mod quoridor;
#[path = "../../../examples/players/rolit.rs"]
mod rolit;
#[path = "../../../examples/players/take.rs"]
mod take;
mod tictactoe;

use std::sync::atomic::AtomicI32;

use minimax::search::batched::Encode;
use minimax::search::best_reply::BestReply;
use minimax::search::ismcts::{self, IsmctsOptions, IsmctsResult};
use minimax::search::maxn::{self, MaxnOptions, MaxnResult};
use minimax::search::maxn_mcts::{MaxnMcts, MaxnMctsResult};
use minimax::search::mcts::{Mcts, MctsResult};
use minimax::search::paranoid::Paranoid;
use minimax::search::{
    CalibrateOptions, Calibration, Fork, Game, GameError, Move, SearchResult, calibrate_probcut,
    calibrate_probcut_positions, search_parallel,
};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyTuple};

use crate::errors::from_status;
use crate::moves::MoveMap;
use crate::options::{Family, MctsArgs, SearchArgs, not_two_players};
use crate::probcut::PyProbCut;
use crate::watch::detached;

/// The games, by the name the Python classes pass.
#[derive(Clone)]
enum Kind {
    TicTacToe(tictactoe::TicTacToe),
    ConnectFour(Box<connect4::Position>), // 1.5 KB: boxed, as the others are small
    Othello(othello::Othello),
    Hex(hex::Hex),
    Game2048(game2048::Game2048),
    Rolit(rolit::Rolit),
    ChineseCheckers(Box<chinese_checkers::ChineseCheckers>),
    Take(take::Take),
    Pig(pig::Pig),
    Quoridor(Box<quoridor::Quoridor>),
    OhHell(oh_hell::OhHell),
    Hearts(Box<hearts::Hearts>),
}

impl Kind {
    /// The game's encoding for batched MCTS, where it has one.
    fn encoding(&mut self) -> Option<&mut dyn Encode> {
        match self {
            Kind::TicTacToe(g) => Some(g),
            Kind::ConnectFour(g) => Some(&mut **g),
            _ => None,
        }
    }

    /// The encoding's sizes (floats, actions), where it has one.
    fn shape(&self) -> Option<(usize, usize)> {
        match self {
            Kind::TicTacToe(g) => Some((g.observation_size(), g.action_count())),
            Kind::ConnectFour(g) => Some((g.observation_size(), g.action_count())),
            _ => None,
        }
    }

    fn game(&mut self) -> &mut dyn Game {
        match self {
            Kind::TicTacToe(g) => g,
            Kind::ConnectFour(g) => &mut **g,
            Kind::Othello(g) => g,
            Kind::Hex(g) => g,
            Kind::Game2048(g) => g,
            Kind::Rolit(g) => g,
            Kind::ChineseCheckers(g) => &mut **g,
            Kind::Take(g) => g,
            Kind::Pig(g) => g,
            Kind::Quoridor(g) => &mut **g,
            Kind::OhHell(g) => g,
            Kind::Hearts(g) => &mut **g,
        }
    }
}

/// A game written in Rust. Moves are ints: tic-tac-toe's cells 0-8 (row by row),
/// Connect Four's columns 0-6, Othello's squares 0-63 (8 * row + column) and 64 to pass,
/// Hex's cells (size * row + column), 2048's slides 0-3 (left, right, up, down) and its
/// tiles 2 * cell (a 2) or 2 * cell + 1 (a 4); Rolit's squares (8 * row + column),
/// Chinese Checkers' `from * 128 + to` (cells numbered in rows), Take's `4 * pile + n`,
/// Pig's 0 (roll) and 1 (stop), its outcomes the face less one; Quoridor's as OpenSpiel's
/// `quoridor` numbers them (points of its grid of 17 a side); Oh Hell's as OpenSpiel's
/// `oh_hell` numbers them (cards `4 * rank + suit`, bids `52 + bid`), chance steps too;
/// Hearts' as OpenSpiel's `hearts` does (pass directions, then cards), chance steps too.
/// The games of more than two players (Rolit, Chinese Checkers, Take, Pig, Quoridor) give a tuple of
/// scores from `outcome()` and `evaluate()`, and `players()` and `to_move()`.
#[pyclass(subclass, module = "libminimax.games", name = "NativeGame")]
#[derive(Clone)]
pub struct Native {
    name: &'static str,
    kind: Kind,
    /// The moves played through `play`, for `undo`'s check.
    line: Vec<Move>,
}

fn bad(what: String) -> PyErr {
    PyValueError::new_err(what)
}

#[pymethods]
impl Native {
    /// `name` is one of "tic_tac_toe", "connect_four" (`setup`: a line of column digits
    /// 1-7, Pons' notation), "othello", "hex" (`setup`: the board's size, default 7),
    /// "game2048" (`setup`: 16 tile exponents row by row, 0 for empty; default one tile);
    /// for more than two players, "rolit" (`setup`: (size, players), size 4, 6 or 8 and 3
    /// or 4 players; default (8, 3)), "chinese_checkers" (three players, the 73-cell
    /// star), "take" (`setup`: (piles, players), default ([3, 4, 5], 3)) and "pig"
    /// (`setup`: players, 3 to 8, default 3; OpenSpiel's rules and defaults), "quoridor"
    /// (`setup`: players, 3 or 4, default 3; OpenSpiel's rules and defaults); with hidden
    /// information, "oh_hell" (`setup`: players, 3 to 7, default 3, or (players,
    /// sampling), sampling "unseen" or "dealt"; OpenSpiel's rules) and "hearts" (four
    /// players, OpenSpiel's rules and defaults).
    #[new]
    #[pyo3(signature = (name, setup = None))]
    fn new(name: &str, setup: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let (name, kind) = match name {
            "tic_tac_toe" => ("tic_tac_toe", Kind::TicTacToe(Default::default())),
            "connect_four" => {
                let line: String = setup.map(|s| s.extract()).transpose()?.unwrap_or_default();
                let p = connect4::Position::setup(&line)
                    .map_err(|e| bad(format!("the line {line:?}: {e}")))?;
                ("connect_four", Kind::ConnectFour(Box::new(p)))
            }
            "othello" => ("othello", Kind::Othello(othello::Othello::new())),
            "hex" => {
                let n: usize = setup.map(|s| s.extract()).transpose()?.unwrap_or(7);
                if !(1..=19).contains(&n) {
                    return Err(bad(format!("a Hex board of size {n}: sizes are 1 to 19")));
                }
                ("hex", Kind::Hex(hex::Hex::new(n)))
            }
            "game2048" => {
                let g = match setup {
                    None => game2048::Game2048::random(0, 0),
                    Some(s) => {
                        let cells: [u8; 16] = s.extract().map_err(|_| {
                            bad("a 2048 board is 16 tile exponents (0 to 17)".into())
                        })?;
                        if cells.iter().any(|&c| c > 17) {
                            return Err(bad("a 2048 tile exponent is at most 17".into()));
                        }
                        game2048::Game2048::new(cells)
                    }
                };
                ("game2048", Kind::Game2048(g))
            }
            "rolit" => {
                let (size, players): (usize, usize) =
                    setup.map(|s| s.extract()).transpose()?.unwrap_or((8, 3));
                if !matches!(size, 4 | 6 | 8) || !matches!(players, 3 | 4) {
                    return Err(bad(format!(
                        "Rolit of size {size} for {players} players: sizes are 4, 6 and 8, \
                         for 3 or 4 players"
                    )));
                }
                ("rolit", Kind::Rolit(rolit::Rolit::new(size, players)))
            }
            "chinese_checkers" => ("chinese_checkers", Kind::ChineseCheckers(Box::default())),
            "take" => {
                let (piles, players): (Vec<u8>, usize) = setup
                    .map(|s| s.extract())
                    .transpose()?
                    .unwrap_or((vec![3, 4, 5], 3));
                if !(2..=8).contains(&players) || piles.is_empty() || piles.len() > 16 {
                    return Err(bad(format!(
                        "Take with {} piles for {players} players: 1 to 16 piles, 2 to 8 \
                         players",
                        piles.len()
                    )));
                }
                ("take", Kind::Take(take::Take::new(&piles, players)))
            }
            "pig" => {
                let players: usize = setup.map(|s| s.extract()).transpose()?.unwrap_or(3);
                if !(3..=8).contains(&players) {
                    return Err(bad(format!("Pig for {players} players: 3 to 8")));
                }
                ("pig", Kind::Pig(pig::Pig::new(players)))
            }
            "quoridor" => {
                let players: usize = setup.map(|s| s.extract()).transpose()?.unwrap_or(3);
                if !(3..=4).contains(&players) {
                    return Err(bad(format!("Quoridor for {players} players: 3 or 4")));
                }
                let g = Box::new(quoridor::Quoridor::new(players));
                ("quoridor", Kind::Quoridor(g))
            }
            "oh_hell" => {
                let (players, sampling): (usize, String) = match setup {
                    None => (3, "unseen".into()),
                    Some(s) => match s.extract::<usize>() {
                        Ok(players) => (players, "unseen".into()),
                        Err(_) => s.extract()?,
                    },
                };
                if !(3..=7).contains(&players) {
                    return Err(bad(format!("Oh Hell for {players} players: 3 to 7")));
                }
                let g = oh_hell::OhHell::new(players);
                let g = match sampling.as_str() {
                    "unseen" => g,
                    "dealt" => g.sampling_dealt_cards(),
                    _ => {
                        return Err(bad(format!(
                            "sampling={sampling:?}: 'unseen' (every card the mover has not \
                             seen) or 'dealt' (the cards the others hold, as OpenSpiel's \
                             oh_hell samples)"
                        )));
                    }
                };
                ("oh_hell", Kind::OhHell(g))
            }
            "hearts" => ("hearts", Kind::Hearts(Box::default())),
            _ => {
                return Err(bad(format!(
                    "no native game '{name}': tic_tac_toe, connect_four, othello, hex, \
                     game2048, rolit, chinese_checkers, take, pig, quoridor, oh_hell, \
                     hearts"
                )));
            }
        };
        Ok(Native {
            name,
            kind,
            line: Vec::new(),
        })
    }

    /// The game's name.
    #[getter]
    fn name(&self) -> &'static str {
        self.name
    }

    /// The moves played through `play` and not taken back.
    #[getter]
    fn line(&self) -> Vec<Move> {
        self.line.clone()
    }

    /// The legal moves, best first (none at a chance step: see `outcomes`).
    fn moves(&mut self) -> PyResult<Vec<Move>> {
        let g = self.kind.game();
        let mut out = Vec::new();
        let mut scores = [0; 8];
        let over = match g.players() {
            2 => g.outcome().is_some(),
            n => g.player_scores(&mut scores[..n]),
        };
        if !over && !g.is_chance() {
            g.moves(&mut out).map_err(from_status)?;
        }
        Ok(out)
    }

    /// Plays `move`, a legal move (or, at a chance step, an outcome).
    #[pyo3(signature = (r#move))]
    fn play(&mut self, r#move: Move) -> PyResult<()> {
        let mv = r#move;
        let legal = if self.kind.game().is_chance() {
            self.outcomes()?.iter().any(|&(m, _)| m == mv)
        } else {
            self.moves()?.contains(&mv)
        };
        if !legal {
            return Err(bad(format!("{mv} is not a legal move here")));
        }
        self.kind.game().play(mv);
        self.line.push(mv);
        Ok(())
    }

    /// Takes back `move`, the last move played.
    #[pyo3(signature = (r#move))]
    fn undo(&mut self, r#move: Move) -> PyResult<()> {
        let mv = r#move;
        match self.line.last() {
            Some(&last) if last == mv => {
                self.kind.game().undo(mv);
                self.line.pop();
                Ok(())
            }
            Some(&last) => Err(bad(format!("{mv} is not the last move played ({last} is)"))),
            None => Err(bad(format!("{mv} was not played: no move has been"))),
        }
    }

    /// The final score in MAX's view if the game is over, else `None`; with more than
    /// two players, each player's score as a tuple.
    fn outcome<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let g = self.kind.game();
        let n = g.players();
        if n == 2 {
            return Ok(g.outcome().map(|v| PyInt::new(py, v).into_any()));
        }
        let mut out = vec![0; n];
        if !g.player_scores(&mut out) {
            return Ok(None);
        }
        Ok(Some(PyTuple::new(py, out)?.into_any()))
    }

    /// The game's heuristic score, in the view `view()` names; with more than two
    /// players, each player's as a tuple.
    fn evaluate<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let g = self.kind.game();
        let n = g.players();
        if n == 2 {
            return Ok(PyInt::new(py, g.evaluate()).into_any());
        }
        let mut out = vec![0; n];
        g.player_evaluations(&mut out);
        Ok(PyTuple::new(py, out)?.into_any())
    }

    /// How many players the game has.
    fn players(&mut self) -> usize {
        self.kind.game().players()
    }

    /// The player to move (0 to `players() - 1`); in a two-player game, 0 where MAX is
    /// to move.
    #[pyo3(name = "to_move")]
    fn player_to_move(&mut self) -> usize {
        let g = self.kind.game();
        match g.players() {
            2 => usize::from(g.max_to_move() == Some(false)),
            _ => g.player_to_move(),
        }
    }

    /// With more than two players: the least score a player can have and the most the
    /// scores sum to, or `None`.
    fn player_bounds(&mut self) -> Option<(i32, i32)> {
        self.kind.game().player_bounds()
    }

    /// Whose view `outcome` and `evaluate` take: "max" or "side" (the side to move's).
    fn view(&mut self) -> &'static str {
        match self.kind.game().score_view() {
            minimax::search::ScoreView::Max => "max",
            minimax::search::ScoreView::SideToMove => "side",
        }
    }

    fn hash(&mut self) -> Option<u64> {
        self.kind.game().hash()
    }

    fn max_to_move(&mut self) -> Option<bool> {
        self.kind.game().max_to_move()
    }

    fn bounds(&mut self) -> Option<(i32, i32)> {
        self.kind.game().bounds()
    }

    fn is_chance(&mut self) -> bool {
        self.kind.game().is_chance()
    }

    /// At a chance step, the outcomes and their weights.
    fn outcomes(&mut self) -> PyResult<Vec<(Move, f64)>> {
        let g = self.kind.game();
        let mut out = Vec::new();
        if g.is_chance() {
            g.outcomes(&mut out).map_err(from_status)?;
        }
        Ok(out)
    }

    /// The position's encoding for a network (batched MCTS's `observe`): a list of
    /// floats (tic-tac-toe: 18, the side to move's marks then the other's; Connect Four:
    /// 84, two planes of cell 6 * column + row). `TypeError` for a game without one.
    fn observation(&mut self) -> PyResult<Vec<f32>> {
        let Some((size, _)) = self.kind.shape() else {
            return Err(PyTypeError::new_err(format!(
                "{} has no encoding",
                self.name
            )));
        };
        let mut out = vec![0.0; size];
        if let Some(e) = self.kind.encoding() {
            e.observe(&mut out);
        }
        Ok(out)
    }

    /// The number of actions a network scores: 9 (tic-tac-toe) or 7 (Connect Four);
    /// a move (a cell, a column) is its own index.
    #[getter]
    fn action_count(&self) -> PyResult<usize> {
        match self.kind.shape() {
            Some((_, actions)) => Ok(actions),
            None => Err(PyTypeError::new_err(format!(
                "{} has no encoding",
                self.name
            ))),
        }
    }

    /// A copy in the same position.
    fn copy(&self) -> Self {
        self.clone()
    }

    fn __repr__(&self) -> String {
        format!("<libminimax.games {} after {:?}>", self.name, self.line)
    }
}

/// A copy of a native game that has an encoding, for batched MCTS (which searches
/// copies: it leaves them where it found them).
#[derive(Clone)]
pub struct Encoded(Kind);

impl Game for Encoded {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), minimax::search::GameError> {
        self.0.game().moves(out)
    }
    fn play(&mut self, mv: Move) {
        self.0.game().play(mv)
    }
    fn undo(&mut self, mv: Move) {
        self.0.game().undo(mv)
    }
    fn outcome(&mut self) -> Option<i32> {
        self.0.game().outcome()
    }
    fn evaluate(&mut self) -> i32 {
        self.0.game().evaluate()
    }
    fn hash(&mut self) -> Option<u64> {
        self.0.game().hash()
    }
    fn max_to_move(&mut self) -> Option<bool> {
        self.0.game().max_to_move()
    }
    fn score_view(&mut self) -> minimax::search::ScoreView {
        self.0.game().score_view()
    }
    fn is_chance(&mut self) -> bool {
        self.0.game().is_chance()
    }
    fn outcomes(&mut self, out: &mut Vec<(Move, f64)>) -> Result<(), minimax::search::GameError> {
        self.0.game().outcomes(out)
    }
}

impl Encode for Encoded {
    fn observation_size(&self) -> usize {
        self.0.shape().map_or(0, |s| s.0)
    }
    fn action_count(&self) -> usize {
        self.0.shape().map_or(0, |s| s.1)
    }
    fn observe(&mut self, out: &mut [f32]) {
        if let Some(e) = self.0.encoding() {
            e.observe(out)
        }
    }
    fn action_index(&mut self, mv: Move) -> usize {
        self.0.encoding().map_or(usize::MAX, |e| e.action_index(mv))
    }
}

/// Copies of `games`, native games of one kind with an encoding (tic-tac-toe, Connect
/// Four), for batched MCTS; a `TypeError` names the first that is not.
pub fn encoded(games: &Bound<'_, PyAny>) -> PyResult<Vec<Encoded>> {
    let mut out = Vec::new();
    let mut name = None;
    for (i, game) in games.try_iter()?.enumerate() {
        let game = game?;
        let Ok(native) = game.cast::<Native>() else {
            return Err(PyTypeError::new_err(format!(
                "games[{i}] is not a native game: batched MCTS searches libminimax.games' \
                 TicTacToe and ConnectFour"
            )));
        };
        let this = native
            .try_borrow()
            .map_err(|_| PyRuntimeError::new_err("the game is being searched already"))?;
        if this.kind.shape().is_none() {
            return Err(PyTypeError::new_err(format!(
                "games[{i}] ({}) has no encoding: batched MCTS searches tic_tac_toe and \
                 connect_four",
                this.name
            )));
        }
        if name.is_some_and(|n| n != this.name) {
            return Err(PyTypeError::new_err(format!(
                "games[{i}] is {} where games[0] is {}: one kind of game a search",
                this.name,
                name.unwrap_or_default()
            )));
        }
        name = Some(this.name);
        out.push(Encoded(this.kind.clone()));
    }
    Ok(out)
}

/// A search of a native game, whatever its type: `Kind::search` calls it with the game.
trait Searcher {
    type Out;
    fn search<G: Game + Fork + Send + 'static>(self, game: &mut G) -> Self::Out;
}

impl Kind {
    fn search<S: Searcher>(&mut self, s: S) -> S::Out {
        match self {
            Kind::TicTacToe(g) => s.search(g),
            Kind::ConnectFour(g) => s.search(&mut **g),
            Kind::Othello(g) => s.search(g),
            Kind::Hex(g) => s.search(g),
            Kind::Game2048(g) => s.search(g),
            Kind::Rolit(g) => s.search(g),
            Kind::ChineseCheckers(g) => s.search(&mut **g),
            Kind::Take(g) => s.search(g),
            Kind::Pig(g) => s.search(g),
            Kind::Quoridor(g) => s.search(&mut **g),
            Kind::OhHell(g) => s.search(g),
            Kind::Hearts(g) => s.search(&mut **g),
        }
    }
}

/// `game` as a native game, borrowed for a search; `None` if it is not one.
fn native<'py>(game: &Bound<'py, PyAny>) -> PyResult<Option<PyRefMut<'py, Native>>> {
    let Ok(native) = game.cast::<Native>() else {
        return Ok(None);
    };
    let this = native
        .try_borrow_mut()
        .map_err(|_| PyRuntimeError::new_err("the game is being searched already"))?;
    Ok(Some(this))
}

struct AlphaBeta<'a, 'py> {
    py: Python<'py>,
    args: &'a SearchArgs,
}

impl Searcher for AlphaBeta<'_, '_> {
    type Out = PyResult<SearchResult>;
    fn search<G: Game + Fork + Send + 'static>(self, g: &mut G) -> Self::Out {
        let stop = AtomicI32::new(0);
        let work = || search_parallel(g, &mut self.args.options(&stop));
        detached(self.py, &stop, work)?.map_err(from_status)
    }
}

struct MonteCarlo<'a, 'py> {
    py: Python<'py>,
    tree: &'a mut Mcts,
    args: &'a MctsArgs,
}

impl Searcher for MonteCarlo<'_, '_> {
    type Out = PyResult<MctsResult>;
    fn search<G: Game + Fork + Send + 'static>(self, g: &mut G) -> Self::Out {
        let stop = AtomicI32::new(0);
        let (tree, args) = (self.tree, self.args);
        let work = || tree.search_parallel(g, &mut args.options(&stop));
        detached(self.py, &stop, work)?.map_err(from_status)
    }
}

/// A search of `game` by an n-player method if it is a native game (`None` if it is
/// not): a game of two players is a `TypeError`.
pub fn players_search(
    game: &Bound<'_, PyAny>,
    family: Family,
    args: &SearchArgs,
) -> PyResult<Option<crate::results::SearchResult>> {
    let Some(mut this) = native(game)? else {
        return Ok(None);
    };
    let py = game.py();
    let g = this.kind.game();
    if g.players() < 3 {
        return Err(PyTypeError::new_err(format!(
            "method='{}' searches games of 3 to 8 players; {} has two",
            family.name(),
            this.name
        )));
    }
    let mover = g.player_to_move();
    let r = this.kind.search(Players { py, family, args })?;
    let map = MoveMap::default();
    match r {
        PlayersOut::Maxn(r) => crate::results::SearchResult::of_maxn(py, &map, r, mover),
        PlayersOut::Engine(r) => crate::results::SearchResult::new(py, &map, r),
    }
    .map(Some)
}

/// Whether `game` is a native game of more than two players.
pub fn has_players(game: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
    let Some(mut this) = native(game)? else {
        return Ok(None);
    };
    Ok(Some(this.kind.game().players()))
}

/// An n-player search's answer.
enum PlayersOut {
    Maxn(MaxnResult),
    Engine(SearchResult),
}

struct Players<'a, 'py> {
    py: Python<'py>,
    family: Family,
    args: &'a SearchArgs,
}

impl Searcher for Players<'_, '_> {
    type Out = PyResult<PlayersOut>;
    fn search<G: Game + Fork + Send + 'static>(self, g: &mut G) -> Self::Out {
        let stop = AtomicI32::new(0);
        let args = self.args;
        match self.family {
            Family::Maxn => {
                let opts = MaxnOptions {
                    max_depth: args.depth.unwrap_or(u32::MAX),
                    iterative_deepening: args.deepening,
                    node_limit: args.nodes,
                    time_limit: args.time,
                    stop: Some(&stop),
                    shallow_pruning: true,
                    table_bytes: args.table_bytes,
                };
                let work = || maxn::search(g, &opts);
                let r = detached(self.py, &stop, work)?.map_err(from_status)?;
                Ok(PlayersOut::Maxn(r))
            }
            Family::Paranoid | Family::BestReply => {
                let copy = g
                    .fork()
                    .ok_or_else(|| PyRuntimeError::new_err("the game could not be copied"))?;
                let paranoid = self.family == Family::Paranoid;
                let work = || {
                    let mut options = args.options(&stop);
                    if paranoid {
                        let mut view = Paranoid::new(copy)?;
                        search_parallel(&mut view, &mut options)
                    } else {
                        let mut view = BestReply::new(copy)?;
                        let mut r = search_parallel(&mut view, &mut options)?;
                        // Of the view's line, only the first move is a move of the game.
                        r.pv.truncate(1);
                        Ok(r)
                    }
                };
                let r = detached(self.py, &stop, work)?.map_err(from_status)?;
                Ok(PlayersOut::Engine(r))
            }
        }
    }
}

/// A search of `game` if it is a native game (`None` if it is not).
pub fn search(game: &Bound<'_, PyAny>, args: &SearchArgs) -> PyResult<Option<SearchResult>> {
    let Some(mut this) = native(game)? else {
        return Ok(None);
    };
    let py = game.py();
    this.kind.search(AlphaBeta { py, args }).map(Some)
}

/// An MCTS search of `game` if it is a native game (`None` if it is not): `tree` keeps
/// two-player games' trees, `players` those of more players (max^n backups).
pub fn mcts(
    game: &Bound<'_, PyAny>,
    tree: &mut Mcts,
    players: &mut MaxnMcts,
    args: &MctsArgs,
) -> PyResult<Option<crate::results::MctsResult>> {
    let Some(mut this) = native(game)? else {
        return Ok(None);
    };
    let py = game.py();
    let map = MoveMap::default();
    let g = this.kind.game();
    if g.players() > 2 {
        let mover = g.player_to_move();
        let r = this.kind.search(PlayersMonteCarlo { py, players, args })?;
        return crate::results::MctsResult::of_players(py, &map, r, mover).map(Some);
    }
    let r = this.kind.search(MonteCarlo { py, tree, args })?;
    crate::results::MctsResult::new(py, &map, r).map(Some)
}

struct PlayersMonteCarlo<'a, 'py> {
    py: Python<'py>,
    players: &'a mut MaxnMcts,
    args: &'a MctsArgs,
}

impl Searcher for PlayersMonteCarlo<'_, '_> {
    type Out = PyResult<MaxnMctsResult>;
    fn search<G: Game + Fork + Send + 'static>(self, g: &mut G) -> Self::Out {
        let stop = AtomicI32::new(0);
        let (tree, args) = (self.players, self.args);
        let work = || tree.search_parallel(g, &args.player_options(&stop));
        detached(self.py, &stop, work)?.map_err(from_status)
    }
}

/// An ISMCTS search of `game` if it is a native game (`None` if it is not), each
/// iteration on a copy redealt by the game's own `sample`.
pub fn ismcts(
    py: Python<'_>,
    game: &Bound<'_, PyAny>,
    opts: &IsmctsOptions,
) -> PyResult<Option<crate::results::MctsResult>> {
    let Some(mut this) = native(game)? else {
        return Ok(None);
    };
    let r = this.kind.search(Hidden { py, opts })?;
    crate::results::MctsResult::of_ismcts(py, &MoveMap::default(), r).map(Some)
}

struct Hidden<'a, 'py> {
    py: Python<'py>,
    opts: &'a IsmctsOptions,
}

impl Searcher for Hidden<'_, '_> {
    type Out = PyResult<IsmctsResult>;
    fn search<G: Game + Fork + Send + 'static>(self, g: &mut G) -> Self::Out {
        let stop = AtomicI32::new(0);
        let opts = self.opts;
        let work = || {
            ismcts::search_with(g, opts, Some(&stop), |g, seed| {
                // (Every native game is Clone: its fork never fails.)
                let mut copy = g.fork().ok_or(GameError::OutOfMemory)?;
                if copy.sample(seed) {
                    Ok(copy)
                } else {
                    Err(GameError::NoSample)
                }
            })
        };
        detached(self.py, &stop, work)?.map_err(from_status)
    }
}

/// Whether `game` is a native game.
pub fn is_native(game: &Bound<'_, PyAny>) -> bool {
    game.cast::<Native>().is_ok()
}

struct Calibrate<'a, 'py> {
    py: Python<'py>,
    args: &'a SearchArgs,
    opts: &'a CalibrateOptions,
}

impl Searcher for Calibrate<'_, '_> {
    type Out = PyResult<Calibration>;
    fn search<G: Game + Fork + Send + 'static>(self, g: &mut G) -> Self::Out {
        let stop = AtomicI32::new(0);
        let (args, opts) = (self.args, self.opts);
        let work = || calibrate_probcut(g, &args.options(&stop), opts);
        detached(self.py, &stop, work)?.map_err(from_status)
    }
}

/// A two-player native game's kind, or the error that it has more players.
fn two_players(kind: &mut Kind) -> PyResult<()> {
    match kind.game().players() {
        2 => Ok(()),
        n => Err(not_two_players(n)),
    }
}

/// A ProbCut calibration by self-play from `game` if it is a native game (`None` if it
/// is not), the GIL released.
pub fn calibrate(
    game: &Bound<'_, PyAny>,
    args: &SearchArgs,
    opts: &CalibrateOptions,
) -> PyResult<Option<PyProbCut>> {
    let Some(mut this) = native(game)? else {
        return Ok(None);
    };
    two_players(&mut this.kind)?;
    let py = game.py();
    let c = this.kind.search(Calibrate { py, args, opts })?;
    Ok(Some(PyProbCut::calibrated(c)))
}

/// A ProbCut calibration on `positions` if they are native games (`None` if they are
/// not, or there are none), copies of them searched with the GIL released; a list that
/// mixes native games with others is a `TypeError`.
pub fn calibrate_positions(
    py: Python<'_>,
    positions: &[Bound<'_, PyAny>],
    args: &SearchArgs,
    opts: &CalibrateOptions,
) -> PyResult<Option<PyProbCut>> {
    let Some(first) = positions.first() else {
        return Ok(None);
    };
    let natives = is_native(first);
    if let Some(i) = positions.iter().position(|p| is_native(p) != natives) {
        let (this, that) = if natives { ("not ", "") } else { ("", "not ") };
        return Err(PyTypeError::new_err(format!(
            "positions[{i}] is {this}a native game where positions[0] is {that}one: give \
             positions of one kind"
        )));
    }
    if !natives {
        return Ok(None);
    }
    let mut kinds = Vec::new();
    for p in positions {
        let this = native(p)?.expect("checked: a native game");
        let mut kind = this.kind.clone();
        two_players(&mut kind)?;
        kinds.push(kind);
    }
    let stop = AtomicI32::new(0);
    let work = || {
        let mut games: Vec<&mut dyn Game> = kinds.iter_mut().map(Kind::game).collect();
        calibrate_probcut_positions(&mut games, &args.options(&stop), opts)
    };
    let c = detached(py, &stop, work)?.map_err(from_status)?;
    Ok(Some(PyProbCut::calibrated(c)))
}

/// Adds `NativeGame` to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Native>()
}
