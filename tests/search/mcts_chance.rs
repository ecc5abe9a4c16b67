//! MCTS across chance steps (issue 40): each outcome is a node of the tree (closed loop),
//! so that MCTS converges to the expected value, and a chance node whose outcomes are all
//! proven is proven at their weighted mean. Checked against `exact`, a plain expectimax
//! written apart from the library (examples/dice/games.rs), and the library's expectimax,
//! on Pig with a turn limit (the turn passes inside a chance step: `max_to_move` given)
//! and a one-player race with and without `max_to_move` (one rule for turns: the sides
//! alternate at every ply, chance plies included).

use crate::shared::dice;
use crate::shared::games;

use dice::{Keyed, Pig, Race, exact};
use games::DiceDuel;
use minimax::search::mcts::{Mcts, MctsOptions, Reward};
use minimax::search::{Game, Method, Options, search};

/// MAX's expected score from a result's value (the side to move's reward in [0, 1], for
/// a game scored -1 to 1), `max_root` whether MAX moves at the root.
fn score(value: f64, max_root: bool) -> f64 {
    let v = 2.0 * value - 1.0;
    if max_root { v } else { -v }
}

fn until_proven(seed: u64) -> MctsOptions<'static> {
    MctsOptions {
        playouts: 0,
        reward: Reward::Scaled,
        max_nodes: 4_000_000,
        seed,
        ..MctsOptions::default()
    }
}

/// The library's expectimax value, as a second reference (it must equal `exact`).
fn expectimax<G: Game>(g: &mut G) -> f64 {
    let o = &mut Options {
        method: Method::Expectimax,
        iterative_deepening: false,
        ..Options::default()
    };
    search(g, o).unwrap().expected.unwrap()
}

/// Solves `g` by MCTS until the root is proven, checks the proof against `exact` and
/// each proven root move against `exact` of the position after it.
fn solved_exactly<G: Keyed + Clone>(name: &str, g: &mut G) {
    let want = exact(&mut g.clone(), true);
    assert!(
        (expectimax(g) - want).abs() < 1e-9,
        "{name}: the references agree"
    );
    let max_root = g.max_to_move().unwrap_or(true);
    for seed in [1, 2] {
        let r = Mcts::new().search(g, &mut until_proven(seed)).unwrap();
        let proof = r.proven.unwrap_or_else(|| panic!("{name}: proven ({r:?})"));
        let got = score(proof.reward, max_root);
        // (Probabilities are held in units of 2^-24.)
        assert!(
            (got - want).abs() < 1e-6,
            "{name}: {got} proven, {want} exact"
        );
        for m in &r.root {
            let Some(p) = m.proven else { continue };
            g.play(m.mv);
            let after = exact(&mut g.clone(), !max_root);
            g.undo(m.mv);
            let got = score(p, max_root);
            assert!(
                (got - after).abs() < 1e-6,
                "{name}: move {} {got} against {after}",
                m.mv
            );
        }
        println!(
            "{name}: proven {got:.6} in {} playouts, {} nodes",
            r.playouts, r.nodes
        );
    }
}

#[test]
fn small_dice_games_are_solved_at_their_expected_values() {
    solved_exactly("pig 6/3", &mut Pig::new(6, 3));
    solved_exactly("pig 6/4 at 2-3", &mut Pig::at(6, 4, [2, 3], 0, 1));
    solved_exactly("race 8/3 max_to_move", &mut Race::new(8, 3, true));
    solved_exactly("race 8/3 alternating", &mut Race::new(8, 3, false));
    solved_exactly("race 12/5 alternating", &mut Race::new(12, 5, false));
}

#[test]
fn the_dice_duel_is_solved_after_every_roll() {
    for roll in 1..=6 {
        let mut g = DiceDuel::new(3);
        g.play(roll);
        let want = expectimax(&mut g);
        let r = Mcts::new().search(&mut g, &mut until_proven(1)).unwrap();
        let proof = r.proven.expect("proven");
        // Scores from -10 to 10, MAX to move: the reward scaled back.
        assert!(
            (-10.0 + 20.0 * proof.reward - want).abs() < 1e-5,
            "roll {roll}"
        );
        assert_eq!(
            (g.turn, g.roll),
            (0, roll as i32),
            "the game is left as it was"
        );
    }
}

#[test]
fn pig_converges_to_its_expected_value_on_every_seed() {
    // Pig to 10 in 6 turns, too large to prove in this budget: the root value after
    // 100,000 playouts. Open loop (the way before issue 40) stayed near +0.30 or below
    // on every seed, the exact value being +0.414.
    let mut g = Pig::new(10, 6);
    let want = exact(&mut g.clone(), true);
    assert!((want - 0.4141).abs() < 1e-4, "{want}");
    for seed in 1..=3 {
        let o = &mut MctsOptions {
            playouts: 100_000,
            reward: Reward::Scaled,
            seed,
            ..MctsOptions::default()
        };
        let r = Mcts::new().search(&mut g, o).unwrap();
        let got = score(r.value, true);
        assert!(
            (got - want).abs() < 0.02,
            "seed {seed}: {got} against {want}"
        );
        assert_eq!(r.best_move, Some(0), "rolling is worth more than holding 0");
    }
}

#[test]
fn a_pig_position_with_min_to_move_is_valued_for_min() {
    // Player 1 (MIN) to move with 2 in hand: the side to move's value, MAX's negated.
    let mut g = Pig::at(6, 4, [4, 1], 2, 1);
    let want = exact(&mut g.clone(), false);
    let r = Mcts::new().search(&mut g, &mut until_proven(3)).unwrap();
    let got = score(r.proven.expect("proven").reward, false);
    assert!((got - want).abs() < 1e-6, "{got} against {want}");
}

#[test]
fn two_threads_prove_the_same_values() {
    let mut g = Pig::new(6, 3);
    let want = exact(&mut g.clone(), true);
    let o = &mut MctsOptions {
        threads: 2,
        ..until_proven(1)
    };
    let r = Mcts::new().search_parallel(&mut g, o).unwrap();
    let got = score(r.proven.expect("proven").reward, true);
    assert!((got - want).abs() < 1e-6, "{got} against {want}");
}

#[test]
fn open_loop_stays_an_option_and_follows_the_same_turns() {
    // Open loop proves nothing below a chance step, and on the one-player race it must
    // not hand the turn to another side after a draw: the race searched with and without
    // `max_to_move` is one search, seed for seed. (Handing MIN the moves after each roll
    // scored about -0.17; open loop's own mixing of positions keeps it below the exact
    // +0.39, which closed loop reaches.)
    let values: Vec<f64> = [true, false]
        .into_iter()
        .map(|says_turn| {
            let mut g = Race::new(12, 5, says_turn);
            let o = &mut MctsOptions {
                playouts: 50_000,
                reward: Reward::Scaled,
                open_loop: true,
                ..MctsOptions::default()
            };
            let r = Mcts::new().search(&mut g, o).unwrap();
            assert!(r.proven.is_none());
            assert!(r.nodes < 100, "no node for an outcome: {}", r.nodes);
            score(r.value, true)
        })
        .collect();
    assert_eq!(values[0], values[1]);
    assert!(values[0] > 0.1, "{values:?}");
}

#[test]
fn a_tree_kept_across_a_move_and_its_draw_is_reused() {
    // advance with the move, then the outcome drawn: the next search starts from the
    // subtree of that outcome; with the move alone, the game's hash finds it.
    for give_outcome in [true, false] {
        let mut g = Race::new(12, 5, true);
        let mut m = Mcts::new();
        let opts = |playouts| MctsOptions {
            playouts,
            reward: Reward::Scaled,
            ..MctsOptions::default()
        };
        let r = m.search(&mut g, &mut opts(20_000)).unwrap();
        let mv = r.best_move.unwrap();
        g.play(mv);
        m.advance(mv);
        g.play(4 - mv); // a 4 after running, a 2 after walking
        if give_outcome {
            m.advance(4 - mv);
        }
        let before = m.nodes();
        let r = m.search(&mut g, &mut opts(1)).unwrap();
        assert!(
            before > 1 && r.nodes > 1,
            "kept: {} then {}",
            before,
            r.nodes
        );
        let root_visits: u64 = r.root.iter().map(|s| s.visits).sum();
        assert!(root_visits > 1, "the kept subtree's visits: {root_visits}");
    }
}
