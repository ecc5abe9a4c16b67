//! libminimax for JavaScript (issue 69): the library's searches compiled to WebAssembly
//! with wasm-bindgen, for the npm package in this folder (`js/`), which runs them in a
//! Worker. The games compiled in are `NativeGame` (`games.rs`); a user's own game is a
//! JavaScript object searched through `jsgame.rs`. The families follow the library's
//! folders: `twoplayer` (alpha-beta and exact solving) and `mcts`.

mod clock;
mod errors;
mod games;
mod heartbeat;
mod jsgame;
mod mcts;
mod options;
mod progress;
mod results;
mod twoplayer;

use std::sync::atomic::AtomicI32;

use minimax::search::Game;
use wasm_bindgen::prelude::*;

use games::{Kind, NativeGame};
use options::{Method, SearchOptions};

/// Installs the library's clock when the module starts: WebAssembly has none of its own.
#[wasm_bindgen(start)]
fn start() {
    minimax::search::set_clock(clock::now);
}

/// The library's version.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").into()
}

/// Runs the method `o` names on `game`.
fn run<G: Game + ?Sized>(
    game: &mut G,
    o: &SearchOptions,
    stop: &AtomicI32,
) -> Result<JsValue, minimax::search::GameError> {
    match o.method {
        Method::Mcts => mcts::run(game, o, stop),
        _ => twoplayer::run(game, o, stop),
    }
}

#[wasm_bindgen]
impl NativeGame {
    /// Searches this position (which stays as it is) as `options` say.
    pub fn search(&mut self, options: JsValue) -> Result<JsValue, JsValue> {
        let o = SearchOptions::read(&options)?;
        let mut copy = self.clone();
        let stop = AtomicI32::new(0);
        // Each game's own search, compiled for its type: a call through `dyn Game` a node
        // cost the WebAssembly build about (measured in benches/web) what inlining saves.
        match copy.kind() {
            Kind::TicTacToe(g) => run(g, &o, &stop),
            Kind::ConnectFour(g) => run(&mut **g, &o, &stop),
            Kind::Othello(g) => run(g, &o, &stop),
            Kind::Hex(g) => run(g, &o, &stop),
            Kind::Breakthrough(g) => run(g, &o, &stop),
        }
        .map_err(errors::from_game_error)
    }
}

/// Searches a user's own game, a JavaScript object with `moves()`, `play(m)`, `undo(m)`,
/// `outcome()` and optionally `evaluate()`, `hash()` and `maxToMove()`, on this thread.
/// The object is back in its position afterwards, also after an error.
#[wasm_bindgen(js_name = searchGame)]
pub fn search_game(game: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    let o = SearchOptions::read(&options)?;
    let stop = AtomicI32::new(0);
    let mut g = jsgame::JsGame::new(&game, &stop)?;
    let result = run(&mut g, &o, &stop);
    if let Ok(r) = &result {
        if g.unevaluated && o.method != Method::Mcts {
            // A depth-limited search of a game without evaluate() scored its frontier 0.
            let _ = js_sys::Reflect::set(r, &"unevaluated".into(), &true.into());
        }
    }
    g.finish(result)
}
