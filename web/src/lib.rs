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
mod pool;
mod progress;
mod results;
mod twoplayer;

use std::sync::Arc;
use std::sync::atomic::AtomicI32;

use minimax::search::mcts::Mcts;
use minimax::search::{self, Game, GameError};
use wasm_bindgen::prelude::*;

use games::{Kind, NativeGame};
use heartbeat::Heartbeat;
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

/// Searches a game compiled in, a copy of which beats on this thread, on `o.threads`
/// threads (one, in the module without atomics or without helper Workers).
fn run<G: Game + Clone + Send + 'static>(
    game: G,
    o: &SearchOptions,
    stop: &Arc<AtomicI32>,
) -> Result<JsValue, GameError> {
    let mut game = Heartbeat::new(game, o.progress_ms, stop.clone());
    // The module without atomics has no parallel search compiled in (a sixth of its size).
    let threads = cfg!(target_feature = "atomics");
    match o.method {
        Method::Mcts if threads => {
            mcts::run(o, stop, |opts| Mcts::new().search_parallel(&mut game, opts))
        }
        Method::Mcts => mcts::run(o, stop, |opts| Mcts::new().search(&mut game, opts)),
        _ if threads => twoplayer::run(o, stop, |opts| search::search_parallel(&mut game, opts)),
        _ => twoplayer::run(o, stop, |opts| search::search(&mut game, opts)),
    }
}

#[wasm_bindgen]
impl NativeGame {
    /// Searches this position (which stays as it is) as `options` say.
    pub fn search(&self, options: JsValue) -> Result<JsValue, JsValue> {
        let o = SearchOptions::read(&options)?;
        let stop = Arc::new(AtomicI32::new(0));
        // Each game's own search, compiled for its type: a call through `dyn Game` a node
        // cost the WebAssembly build about (measured in benches/web) what inlining saves.
        match self.kind() {
            Kind::TicTacToe(g) => run(g.clone(), &o, &stop),
            Kind::ConnectFour(g) => run((**g).clone(), &o, &stop),
            Kind::Othello(g) => run(g.clone(), &o, &stop),
            Kind::Hex(g) => run(g.clone(), &o, &stop),
            Kind::Breakthrough(g) => run(g.clone(), &o, &stop),
        }
        .map_err(errors::from_game_error)
    }
}

/// Searches a user's own game, a JavaScript object with `moves()`, `play(m)`, `undo(m)`,
/// `outcome()` and optionally `evaluate()`, `hash()` and `maxToMove()`, on this thread.
/// The object is back in its position afterwards, also after an error.
#[wasm_bindgen(js_name = searchGame)]
pub fn search_game(game: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    let mut o = SearchOptions::read(&options)?;
    o.threads = 1; // its methods are this thread's JavaScript
    let stop = Arc::new(AtomicI32::new(0));
    let mut g = jsgame::JsGame::new(&game, &stop)?;
    let result = {
        let mut game = Heartbeat::new(&mut g, o.progress_ms, stop.clone());
        match o.method {
            Method::Mcts => mcts::run(&o, &stop, |opts| Mcts::new().search(&mut game, opts)),
            _ => twoplayer::run(&o, &stop, |opts| search::search(&mut game, opts)),
        }
    };
    if let Ok(r) = &result {
        if g.unevaluated && o.method != Method::Mcts {
            // A depth-limited search of a game without evaluate() scored its frontier 0.
            let _ = js_sys::Reflect::set(r, &"unevaluated".into(), &true.into());
        }
    }
    g.finish(result)
}
