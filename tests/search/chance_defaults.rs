//! A chance search's defaults cost no more than the best setting of its options (issue
//! 40): on Pig with a turn limit, the dice game of issue 20 and 2048 positions, with and
//! without the game's `hash`, each chance method with the default options visits at most
//! 1.5x the nodes of the fewest any setting of deepening and the table gives. Deepening
//! with no limit that could stop the search cost 1,350x on Pig (121,986,592 nodes against
//! 90,279, by the count), since every iteration searched the long lines again.
//! Every setting must find the same value.

use crate::shared::dice;
use crate::shared::game2048;
use crate::shared::games;

use dice::Pig;
use game2048::Game2048;
use games::DiceDuel;
use minimax::search::{Game, GameError, Method, Move, Options, search};

/// A game without its hash: no table.
struct NoHash<G>(G);

impl<G: Game> Game for NoHash<G> {
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
    fn max_to_move(&mut self) -> Option<bool> {
        self.0.max_to_move()
    }
    fn bounds(&mut self) -> Option<(i32, i32)> {
        self.0.bounds()
    }
    fn is_chance(&mut self) -> bool {
        self.0.is_chance()
    }
    fn outcomes(&mut self, out: &mut Vec<(Move, f64)>) -> Result<(), GameError> {
        self.0.outcomes(out)
    }
}

/// The value and nodes of a search of `g` with `depth` and the rest as `set` leaves it.
fn nodes<G: Game>(g: &mut G, method: Method, depth: u32, set: impl Fn(&mut Options)) -> (f64, u64) {
    let mut o = Options {
        method,
        max_depth: depth,
        ..Options::default()
    };
    set(&mut o);
    let r = search(g, &mut o).unwrap();
    (r.expected.unwrap(), r.stats.nodes)
}

/// Checks the defaults against every setting of deepening and the table on `g`; if not
/// `small`, only against the settings with a table and without deepening (Pig to 10
/// takes minutes here without a table or with deepening: its figures are in
/// docs/performance.md). Deepening is measured with a node limit too high to reach, so
/// that a limit could stop the search: without one, the search does not deepen.
fn defaults_hold<G: Game>(name: &str, g: &mut G, depth: u32, small: bool) {
    for method in [Method::Expectimax, Method::Star1, Method::Star2] {
        let (value, default) = nodes(g, method, depth, |_| {});
        let mut best = u64::MAX;
        for deepening in [false, small] {
            for table_bytes in [if small { 0 } else { 1 << 20 }, 1 << 20, 16 << 20] {
                let (v, n) = nodes(g, method, depth, |o| {
                    o.iterative_deepening = deepening;
                    o.node_limit = if deepening { u64::MAX } else { 0 };
                    o.table_bytes = table_bytes;
                });
                assert!((v - value).abs() <= 1e-9 * value.abs().max(1.0), "{name}");
                best = best.min(n);
            }
        }
        let ratio = default as f64 / best as f64;
        println!("{name:<24} {method:<10?} default {default:>9} best {best:>9} ({ratio:.2}x)");
        assert!(
            ratio <= 1.5,
            "{name}, {method:?}: {default} nodes, best {best}"
        );
    }
}

#[test]
fn pig_with_the_defaults() {
    defaults_hold("pig 10/6", &mut Pig::new(10, 6), u32::MAX, false);
    defaults_hold("pig 6/3", &mut Pig::new(6, 3), u32::MAX, true);
    defaults_hold(
        "pig 6/3 without hash",
        &mut NoHash(Pig::new(6, 3)),
        u32::MAX,
        true,
    );
}

#[test]
fn the_dice_duel_with_the_defaults() {
    defaults_hold("dice duel 6 turns", &mut DiceDuel::new(6), u32::MAX, true);
    defaults_hold(
        "dice duel 4 without hash",
        &mut NoHash(DiceDuel::new(4)),
        u32::MAX,
        true,
    );
}

#[test]
fn positions_of_2048_with_the_defaults() {
    // 2048 has no end in reach: the depth its example searches (4 plies), the rest
    // default.
    for seed in 1..=3 {
        let mut g = Game2048::random(seed, 30);
        defaults_hold(&format!("2048 position {seed}"), &mut g, 4, true);
        defaults_hold(
            &format!("2048 position {seed}, no hash"),
            &mut NoHash(g),
            4,
            true,
        );
    }
}
