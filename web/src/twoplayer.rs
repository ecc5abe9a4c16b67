//! Alpha-beta, principal variation search, minimax and exact solving, as the library's
//! `search` runs them, with progress sent to JavaScript: each completed depth, and a beat
//! every `progressMs` between them.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::AtomicI32;

use minimax::search::{GameError, Method as EngineMethod, Options, Progress, SearchResult, Table};
use wasm_bindgen::JsValue;

use crate::heartbeat::Pulse;
use crate::options::{Method, SearchOptions};
use crate::results::{Fields, moves};

/// What the last completed depth found, for the beats between depths.
#[derive(Default)]
struct Last {
    depth: u32,
    value: i32,
    pv: Vec<f64>,
}

impl Last {
    /// A progress report of `kind` ("depth" or "beat") with what this depth found.
    fn report(&self, kind: &str, nodes: u64, elapsed_ms: f64) -> JsValue {
        Fields::new()
            .str("kind", kind)
            .num("depth", self.depth as f64)
            .num("value", self.value as f64)
            .opt("bestMove", self.pv.first().copied())
            .val("pv", moves(&self.pv))
            .num("nodes", nodes as f64)
            .num("elapsedMs", elapsed_ms)
            .done()
    }
}

thread_local! {
    /// The table, kept from search to search (a page's game asks for one a move), with
    /// the size it was asked for.
    static TABLE: RefCell<Option<(usize, Table)>> = const { RefCell::new(None) };
}

/// Runs `f` with the table of `bytes` bytes, cleared unless `keep`; a table that cannot
/// be had is `OutOfMemory` (the caller asked for it by its size).
fn with_table<R>(
    bytes: usize,
    keep: bool,
    f: impl FnOnce(Option<&mut Table>) -> Result<R, GameError>,
) -> Result<R, GameError> {
    if bytes == 0 {
        return f(None);
    }
    TABLE.with(|cell| {
        let mut slot = cell.borrow_mut();
        match slot.as_mut() {
            Some((b, t)) if *b == bytes => {
                if !keep {
                    t.clear();
                }
            }
            _ => {
                *slot = None; // the old one's memory first
                let mut table = Table::new(bytes).ok_or(GameError::OutOfMemory)?;
                // Its pages touched now, once, rather than during the first searches.
                table.prefault();
                *slot = Some((bytes, table));
            }
        }
        f(slot.as_mut().map(|(_, t)| t))
    })
}

/// Runs `go` (a search of a heartbeating game, on one thread or more) with options made
/// from `o`; the result as a JavaScript object.
pub fn run(
    o: &SearchOptions,
    stop: &AtomicI32,
    go: impl FnOnce(&mut Options<'_>) -> Result<SearchResult, GameError>,
) -> Result<JsValue, GameError> {
    let last = Rc::new(RefCell::new(Last::default()));
    let mut on_depth = |p: &Progress| {
        let l = Last {
            depth: p.depth,
            value: p.value,
            pv: p.pv.iter().map(|&m| m as f64).collect(),
        };
        if let Some(f) = &o.on_progress {
            let report = l.report("depth", p.nodes, p.elapsed.as_secs_f64() * 1000.0);
            let _ = f.call1(&JsValue::NULL, &report);
        }
        *last.borrow_mut() = l;
    };
    let start = crate::clock::now();
    let _pulse = {
        let (o, last) = (o.clone(), last.clone());
        Pulse::install(move |played| {
            crate::progress::beat(&o, || {
                last.borrow()
                    .report("beat", played, crate::clock::now() - start)
            })
        })
    };
    let r = with_table(o.table_bytes, o.keep_table, |table| {
        let mut opts = Options {
            method: match o.method {
                Method::Pvs => EngineMethod::Pvs,
                Method::Exact => EngineMethod::Exact,
                Method::Minimax => EngineMethod::Minimax,
                _ => EngineMethod::AlphaBeta,
            },
            max_depth: o.depth,
            table,
            iterative_deepening: o.iterative_deepening,
            refine_distance: o.refine_distance,
            node_limit: o.nodes,
            time_limit: o.time_limit(),
            stop: Some(stop),
            progress: Some(&mut on_depth),
            threads: o.threads,
            ..Options::default()
        };
        go(&mut opts)
    })?;
    let pv: Vec<f64> = r.pv.iter().map(|&m| m as f64).collect();
    Ok(Fields::new()
        .str("method", crate::options::name(o.method))
        .opt("bestMove", r.best_move.map(|m| m as f64))
        .num("value", r.value as f64)
        .bool("exact", r.exact)
        .bool("proven", r.proven)
        .opt("pliesToEnd", r.plies_to_end.map(f64::from))
        .num("depth", r.depth as f64)
        .val("pv", moves(&pv))
        .num("nodes", r.stats.nodes as f64)
        .num("leaves", r.stats.leaves as f64)
        .num("elapsedMs", r.stats.elapsed.as_secs_f64() * 1000.0)
        .num("threads", r.threads as f64)
        .bool(
            "stopped",
            stop.load(std::sync::atomic::Ordering::Relaxed) != 0,
        )
        .done())
}
