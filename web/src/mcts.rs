//! Monte Carlo tree search with its solver, as the library's `Mcts` runs it: the visits
//! of every root move in the result (the page draws them over the board), reports every
//! `progressMs`.

use std::cell::Cell;
use std::sync::atomic::{AtomicI32, Ordering::Relaxed};

use js_sys::Array;
use minimax::search::GameError;
use minimax::search::mcts::{MctsOptions, MctsProgress, MctsResult};
use wasm_bindgen::JsValue;

use crate::heartbeat::Pulse;
use crate::options::SearchOptions;
use crate::results::Fields;

/// Playouts between two of the engine's reports, when someone listens.
const REPORT_EVERY: u64 = 64;

/// Runs `go` (an MCTS search of a heartbeating game, on one thread or more) with options
/// made from `o`; the result as a JavaScript object.
pub fn run(
    o: &SearchOptions,
    stop: &AtomicI32,
    go: impl FnOnce(&mut MctsOptions<'_>) -> Result<MctsResult, GameError>,
) -> Result<JsValue, GameError> {
    let start = crate::clock::now();
    let last_report = Cell::new(start);
    let mut on_report = |p: &MctsProgress| {
        let now = crate::clock::now();
        if now - last_report.get() < o.progress_ms {
            return;
        }
        last_report.set(now);
        if crate::progress::beat(o, || report("playouts", p)) {
            stop.store(1, Relaxed);
        }
    };
    // The engine's reports carry the best move; the beats only ask whether to stop.
    let _pulse = {
        let o = o.clone();
        Pulse::install(move |_| crate::progress::should_stop(&o))
    };
    let playouts = match (o.playouts, o.time_ms) {
        (Some(n), _) => n,
        (None, Some(_)) => 0, // until the time is up (or the root is proven)
        (None, None) => MctsOptions::default().playouts,
    };
    let listening = o.on_progress.is_some() || o.should_stop.is_some();
    let mut opts = MctsOptions {
        playouts,
        time_limit: o.time_limit(),
        stop: Some(stop),
        exploration: o.exploration,
        seed: o.seed,
        threads: o.threads,
        report_every: if listening { REPORT_EVERY } else { 0 },
        progress: if listening {
            Some(&mut on_report)
        } else {
            None
        },
        ..MctsOptions::default()
    };
    let r = go(&mut opts)?;
    let root: Array = r
        .root
        .iter()
        .map(|s| {
            Fields::new()
                .num("move", s.mv as f64)
                .num("visits", s.visits as f64)
                .num("mean", s.mean)
                .opt("proven", s.proven)
                .done()
        })
        .collect();
    let proven = match r.proven {
        Some(p) => Fields::new()
            .num("reward", p.reward)
            .opt("score", p.score.map(f64::from))
            .done(),
        None => JsValue::NULL,
    };
    Ok(Fields::new()
        .str("method", "mcts")
        .opt("bestMove", r.best_move.map(|m| m as f64))
        .num("value", r.value)
        .val("proven", proven)
        .val("root", root.into())
        .num("playouts", r.playouts as f64)
        .num("nodes", r.nodes as f64)
        .num("depth", r.depth as f64)
        .num("elapsedMs", r.elapsed.as_secs_f64() * 1000.0)
        .num("threads", r.threads as f64)
        .bool("treeFull", r.tree_full)
        .bool("stopped", stop.load(Relaxed) != 0)
        .done())
}

fn report(kind: &str, p: &MctsProgress) -> JsValue {
    Fields::new()
        .str("kind", kind)
        .num("playouts", p.playouts as f64)
        .num("nodes", p.nodes as f64)
        .opt("bestMove", p.best_move.map(|m| m as f64))
        .num("value", p.value)
        .num("elapsedMs", p.elapsed.as_secs_f64() * 1000.0)
        .done()
}
