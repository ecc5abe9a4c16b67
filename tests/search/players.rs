//! Games of more than two players: max^n (with shallow pruning) and the paranoid view,
//! against a brute force written here, apart from the library: plain max^n and plain
//! paranoid minimax over every line, ties to the first move.

use std::sync::atomic::AtomicI32;

use minimax::search::best_reply::BestReply;
use minimax::search::maxn::{self, MaxnOptions};
use minimax::search::paranoid::Paranoid;
use minimax::search::{Game, GameError, Method, Move, Options, search, search_parallel};

use crate::shared::players;

use players::{Forest, PASS, Take};

/// The brute force's scores and move.
type Brute = (Vec<i32>, Option<Move>);

/// Plain max^n to `depth` (`u32::MAX`: to the end), written apart: the scores and the
/// first move whose score for the mover is highest.
fn brute_maxn<G: Game>(g: &mut G, depth: u32) -> Brute {
    let n = g.players();
    let mut v = vec![0; n];
    if g.player_scores(&mut v) {
        return (v, None);
    }
    if depth == 0 {
        g.player_evaluations(&mut v);
        return (v, None);
    }
    let p = g.player_to_move();
    let mut moves = Vec::new();
    g.moves(&mut moves).unwrap();
    let mut best: Option<(Vec<i32>, Move)> = None;
    for m in moves {
        g.play(m);
        let (child, _) = brute_maxn(g, depth.saturating_sub(1));
        g.undo(m);
        if best.as_ref().is_none_or(|(b, _)| child[p] > b[p]) {
            best = Some((child, m));
        }
    }
    let (v, m) = best.unwrap();
    (v, Some(m))
}

/// Plain paranoid minimax, written apart: `root`'s score when it maximises it and every
/// other player minimises it.
fn brute_paranoid<G: Game>(g: &mut G, root: usize, depth: u32) -> i32 {
    let mut v = vec![0; g.players()];
    if g.player_scores(&mut v) {
        return v[root];
    }
    if depth == 0 {
        g.player_evaluations(&mut v);
        return v[root];
    }
    let max = g.player_to_move() == root;
    let mut moves = Vec::new();
    g.moves(&mut moves).unwrap();
    let values = moves.into_iter().map(|m| {
        g.play(m);
        let x = brute_paranoid(g, root, depth.saturating_sub(1));
        g.undo(m);
        x
    });
    let values: Vec<i32> = values.collect();
    if max {
        *values.iter().max().unwrap()
    } else {
        *values.iter().min().unwrap()
    }
}

/// Positions of Take: 3 and 4 players, one to three piles of up to 5, some with points
/// already taken and another player to move.
fn take_positions() -> Vec<Take> {
    let mut out = Vec::new();
    for players in [3, 4] {
        for a in 1..=5u8 {
            for b in 0..=4u8 {
                for c in 0..=3u8 {
                    let piles: Vec<u8> = [a, b, c].into_iter().filter(|&p| p > 0).collect();
                    for to_move in [0, 2] {
                        let mut g = Take::new(&piles, players);
                        g.to_move = (to_move + a as usize) % players;
                        g.taken[(a + c) as usize % players] = (b % 3) as i32;
                        out.push(g);
                    }
                }
            }
        }
    }
    out
}

fn forest_positions() -> Vec<Forest> {
    (0..600u64)
        .flat_map(|seed| [3, 4, 5].map(|players| Forest::new(seed, players)))
        .collect()
}

fn maxn_options(max_depth: u32, deepening: bool, pruning: bool) -> MaxnOptions<'static> {
    MaxnOptions {
        max_depth,
        iterative_deepening: deepening,
        shallow_pruning: pruning,
        ..MaxnOptions::default()
    }
}

#[test]
fn maxn_equals_the_brute_force_with_and_without_pruning() {
    let mut checked = 0;
    let (mut pruned, mut plain) = (0u64, 0u64);
    let mut cutoffs = 0;
    let mut check = |g: &mut dyn FnMut(&MaxnOptions<'_>) -> (maxn::MaxnResult, Brute)| {
        for pruning in [true, false] {
            let opts = maxn_options(u32::MAX, true, pruning);
            let (r, (v, m)) = g(&opts);
            assert_eq!(r.scores, v);
            assert_eq!(r.best_move, m);
            assert!(r.exact && r.proven);
            if pruning {
                pruned += r.nodes;
                cutoffs += r.cutoffs;
            } else {
                plain += r.nodes;
                assert_eq!(r.cutoffs, 0);
            }
        }
        checked += 1;
    };
    for g in take_positions() {
        check(&mut |opts| {
            let mut g = g.clone();
            let r = maxn::search(&mut g, opts).unwrap();
            assert_eq!(g.movers.len(), 0, "the game is left as it was");
            (r, brute_maxn(&mut g, u32::MAX))
        });
    }
    for g in forest_positions() {
        check(&mut |opts| {
            let mut g = g.clone();
            let r = maxn::search(&mut g, opts).unwrap();
            (r, brute_maxn(&mut g, u32::MAX))
        });
    }
    assert!(checked >= 1800, "{checked}");
    assert!(
        cutoffs > 0 && pruned < plain,
        "pruning cut {cutoffs} moves: {pruned} nodes against {plain}"
    );
    println!(
        "{checked} positions (Take {}); shallow pruning: {pruned} nodes against {plain}, {cutoffs} moves cut",
        take_positions().len()
    );
}

#[test]
fn maxn_at_a_depth_equals_the_brute_force_there() {
    let mut checked = 0;
    for g in forest_positions().into_iter().step_by(3) {
        for depth in 1..=3 {
            for deepening in [true, false] {
                let mut g = g.clone();
                let r = maxn::search(&mut g, &maxn_options(depth, deepening, true)).unwrap();
                let (v, m) = brute_maxn(&mut g, depth);
                assert_eq!(
                    (r.scores, r.best_move),
                    (v, m),
                    "seed {} depth {depth}",
                    g.seed
                );
                assert!(r.exact);
                checked += 1;
            }
        }
    }
    assert!(checked >= 1000);
}

/// Plain expectimax-n to `depth` (`u32::MAX`: to the end), written apart: at a chance
/// step the outcomes' vectors weighted by their probabilities; at a player's turn the
/// first child whose value for the mover is highest.
fn brute_expectimax_n<G: Game>(g: &mut G, depth: u32) -> (Vec<f64>, Option<Move>) {
    let n = g.players();
    let mut v = vec![0; n];
    let chance = g.is_chance();
    if !chance && g.player_scores(&mut v) {
        return (v.into_iter().map(f64::from).collect(), None);
    }
    if depth == 0 {
        g.player_evaluations(&mut v);
        return (v.into_iter().map(f64::from).collect(), None);
    }
    if chance {
        let mut outcomes = Vec::new();
        g.outcomes(&mut outcomes).unwrap();
        let total: f64 = outcomes.iter().map(|o| o.1).sum();
        let mut mean = vec![0.0; n];
        for (o, w) in outcomes {
            g.play(o);
            let (child, _) = brute_expectimax_n(g, depth.saturating_sub(1));
            g.undo(o);
            for (m, c) in mean.iter_mut().zip(child) {
                *m += w / total * c;
            }
        }
        return (mean, None);
    }
    let p = g.player_to_move();
    let mut moves = Vec::new();
    g.moves(&mut moves).unwrap();
    let mut best: Option<(Vec<f64>, Move)> = None;
    for m in moves {
        g.play(m);
        let (child, _) = brute_expectimax_n(g, depth.saturating_sub(1));
        g.undo(m);
        if best.as_ref().is_none_or(|(b, _)| child[p] > b[p]) {
            best = Some((child, m));
        }
    }
    let (v, m) = best.unwrap();
    (v, Some(m))
}

/// Take where a player may also wait (pass) while sticks are left: a game without end,
/// searched to a depth.
#[derive(Clone)]
struct Waiting(Take);

impl Game for Waiting {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        // Last first: a position is met first by the shorter line, searched deeper.
        self.0.moves(out)?;
        out.push(PASS);
        out.reverse();
        Ok(())
    }
    fn play(&mut self, mv: Move) {
        self.0.play(mv)
    }
    fn undo(&mut self, mv: Move) {
        self.0.undo(mv)
    }
    fn outcome(&mut self) -> Option<i32> {
        None
    }
    fn evaluate(&mut self) -> i32 {
        0
    }
    fn hash(&mut self) -> Option<u64> {
        self.0.hash()
    }
    fn players(&mut self) -> usize {
        self.0.players()
    }
    fn player_to_move(&mut self) -> usize {
        self.0.player_to_move()
    }
    fn player_scores(&mut self, out: &mut [i32]) -> bool {
        self.0.player_scores(out)
    }
    fn player_evaluations(&mut self, out: &mut [i32]) {
        self.0.player_evaluations(out)
    }
    fn player_bounds(&mut self) -> Option<(i32, i32)> {
        self.0.player_bounds()
    }
}

#[test]
fn maxn_with_and_without_its_table_equals_the_brute_force() {
    // Take's positions meet again by other move orders (and, depth-limited, at other
    // depths): the table must give each its own value.
    let (mut with, mut without, mut hits, mut checked) = (0, 0, 0, 0);
    for g in take_positions().into_iter().step_by(2) {
        for depth in [2, 4, u32::MAX] {
            let (v, m) = brute_maxn(&mut g.clone(), depth);
            for table_bytes in [0, 1 << 16] {
                let opts = MaxnOptions {
                    table_bytes,
                    ..maxn_options(depth, true, true)
                };
                let r = maxn::search(&mut g.clone(), &opts).unwrap();
                assert_eq!((&r.scores, r.best_move), (&v, m), "depth {depth}");
                match table_bytes {
                    0 => without += r.nodes,
                    _ => (with, hits) = (with + r.nodes, hits + r.table_hits),
                }
                assert_eq!(r.table_hits > 0, table_bytes > 0 && r.table_hits > 0);
            }
            checked += 1;
        }
    }
    // A player may also wait: then a position comes again after more plies (one player
    // taking 2 in one move, or 1 and 1 with the others waiting between), where a value
    // searched deeper must not answer for one searched shallower, nor the reverse.
    for g in take_positions().into_iter().step_by(7) {
        for depth in [4, 5] {
            let g = Waiting(g.clone());
            let (v, m) = brute_maxn(&mut g.clone(), depth);
            for table_bytes in [0, 1 << 16] {
                let opts = MaxnOptions {
                    table_bytes,
                    ..maxn_options(depth, true, true)
                };
                let r = maxn::search(&mut g.clone(), &opts).unwrap();
                assert_eq!((&r.scores, r.best_move), (&v, m), "depth {depth}");
                hits += r.table_hits;
            }
            checked += 1;
        }
    }
    assert!(checked >= 600, "{checked}");
    assert!(
        hits > 0 && with < without,
        "{hits} hits: {with} nodes against {without}"
    );
    println!(
        "{checked} searches of Take: the table gave {hits} values, {with} nodes against {without}"
    );
}

#[test]
fn maxn_over_chance_steps_equals_expectimax_n() {
    let mut checked = 0;
    for g in forest_positions().into_iter().step_by(2) {
        let mut g = g;
        g.chance = true;
        for depth in [1, 3, u32::MAX] {
            let (v, m) = brute_expectimax_n(&mut g.clone(), depth);
            for (pruning, table_bytes) in [(true, 1 << 16), (false, 1 << 16), (true, 0)] {
                let opts = MaxnOptions {
                    table_bytes,
                    ..maxn_options(depth, depth > 1, pruning)
                };
                let r = maxn::search(&mut g.clone(), &opts).unwrap();
                assert_eq!(
                    (&r.values, r.best_move),
                    (&v, m),
                    "seed {} depth {depth}",
                    g.seed
                );
                let rounded: Vec<i32> = v.iter().map(|x| x.round() as i32).collect();
                assert_eq!(r.scores, rounded);
                assert!(r.proven || depth < u32::MAX);
                if r.proven {
                    assert_eq!(r.values, brute_expectimax_n(&mut g.clone(), u32::MAX).0);
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= 1000, "{checked}");
}

#[test]
fn paranoid_equals_the_brute_force_in_every_method() {
    let methods = [
        Method::Minimax,
        Method::AlphaBeta,
        Method::Pvs,
        Method::Exact,
    ];
    let mut checked = 0;
    for (i, g) in take_positions().into_iter().enumerate() {
        let mut plain = g.clone();
        let root = plain.to_move;
        let want = brute_paranoid(&mut plain, root, u32::MAX);
        let method = methods[i % methods.len()];
        for table_bytes in [0, 1 << 16] {
            let mut view = Paranoid::new(g.clone()).unwrap();
            assert_eq!(view.root_player(), root);
            let mut opts = Options {
                method,
                table_bytes,
                ..Options::default()
            };
            let r = search(&mut view, &mut opts).unwrap();
            assert_eq!(r.value, want, "{:?} {method:?}", g.piles);
            assert!(r.proven);
            checked += 1;
        }
    }
    for g in forest_positions().into_iter().step_by(2) {
        let mut plain = g.clone();
        let want = brute_paranoid(&mut plain, 0, u32::MAX);
        let mut view = Paranoid::new(g.clone()).unwrap();
        let r = search(&mut view, &mut Options::default()).unwrap();
        assert_eq!(r.value, want, "seed {}", g.seed);
        let want = brute_paranoid(&mut plain, 0, 2);
        let opts = &mut Options {
            max_depth: 2,
            ..Options::default()
        };
        assert_eq!(
            search(&mut view, opts).unwrap().value,
            want,
            "seed {}",
            g.seed
        );
        checked += 2;
    }
    assert!(checked >= 1000, "{checked}");
}

#[test]
fn paranoid_on_two_threads_equals_the_brute_force() {
    for g in take_positions().into_iter().step_by(7) {
        let mut plain = g.clone();
        let want = brute_paranoid(&mut plain, g.to_move, u32::MAX);
        let mut view = Paranoid::new(g).unwrap();
        let r = search_parallel(
            &mut view,
            &mut Options {
                threads: 2,
                ..Options::default()
            },
        )
        .unwrap();
        assert_eq!(r.value, want);
    }
}

#[test]
fn a_two_player_game_through_maxn_is_minimax() {
    // Take for two players is an ordinary game for the engine too, through a view in
    // MAX's terms (player 0's points minus player 1's).
    struct Two(Take);
    impl Game for Two {
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
            let mut v = [0; 2];
            self.0.player_scores(&mut v).then_some(v[0] - v[1])
        }
        fn evaluate(&mut self) -> i32 {
            self.0.taken[0] - self.0.taken[1]
        }
        fn max_to_move(&mut self) -> Option<bool> {
            Some(self.0.to_move == 0)
        }
    }
    for piles in [[3u8, 2, 1], [5, 4, 0], [2, 2, 2], [5, 5, 3]] {
        let mut game = Two(Take::new(&piles, 2));
        let engine = search(&mut game, &mut Options::default()).unwrap();
        let r = maxn::search(&mut game, &MaxnOptions::default()).unwrap();
        assert_eq!(r.scores, vec![engine.value, -engine.value], "{piles:?}");
        assert!(r.proven);
    }
}

#[test]
fn limits_stop_maxn_with_a_legal_move() {
    let mut g = Take::new(&[5, 5, 5, 5], 3);
    let r = maxn::search(
        &mut g,
        &MaxnOptions {
            node_limit: 1000,
            ..MaxnOptions::default()
        },
    )
    .unwrap();
    assert!(!r.proven && r.nodes <= 1001);
    let mut moves = Vec::new();
    g.moves(&mut moves).unwrap();
    assert!(moves.contains(&r.best_move.unwrap()));
    let stop = AtomicI32::new(1);
    let r = maxn::search(
        &mut g,
        &MaxnOptions {
            stop: Some(&stop),
            ..MaxnOptions::default()
        },
    )
    .unwrap();
    assert_eq!(r.best_move, Some(moves[0]));
    assert!(!r.exact && r.scores.is_empty() && r.nodes == 1);
    assert_eq!(g.movers.len(), 0);
}

#[test]
fn broken_player_contracts_are_errors() {
    /// Take with `players()`, a mover at the third move, and final scores that break
    /// `player_bounds`: 1 puts one below the least, 2 makes them sum past the most.
    #[derive(Clone)]
    struct Bad(Take, usize, usize, u8);
    impl Game for Bad {
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
            None
        }
        fn evaluate(&mut self) -> i32 {
            0
        }
        fn players(&mut self) -> usize {
            self.1
        }
        fn player_to_move(&mut self) -> usize {
            if self.0.movers.len() == 2 {
                self.2
            } else {
                self.0.to_move
            }
        }
        fn player_scores(&mut self, out: &mut [i32]) -> bool {
            let over = self.0.player_scores(out);
            match (over, self.3) {
                (true, 1) => out[0] = -1,
                (true, 2) => out[1] += 100,
                _ => {}
            }
            over
        }
        fn player_bounds(&mut self) -> Option<(i32, i32)> {
            self.0.player_bounds()
        }
        fn null_move(&mut self) -> Option<Move> {
            self.0.null_move()
        }
        fn hash(&mut self) -> Option<u64> {
            self.0.hash()
        }
    }
    let take = Take::new(&[2, 3], 3);
    let cases = [
        (Bad(take.clone(), 9, 0, 0), GameError::BadPlayer),
        (Bad(take.clone(), 1, 0, 0), GameError::BadPlayer),
        (Bad(take.clone(), 3, 3, 0), GameError::BadPlayer),
        (Bad(take.clone(), 3, 0, 1), GameError::ScoreOutsideBounds),
        (Bad(take.clone(), 3, 0, 2), GameError::ScoreOutsideBounds),
    ];
    for (game, error) in cases {
        let mut g = game.clone();
        assert_eq!(maxn::search(&mut g, &MaxnOptions::default()), Err(error));
        assert_eq!(g.0.movers.len(), 0);
        // Paranoid and best-reply, as max^n (issue 68: a lying sum passed them), on one
        // thread and on two.
        for threads in [1, 2] {
            let opts = || Options {
                threads,
                ..Options::default()
            };
            let r =
                Paranoid::new(game.clone()).and_then(|mut v| search_parallel(&mut v, &mut opts()));
            assert_eq!(
                r.map(|r| r.value),
                Err(error),
                "paranoid, {threads} threads"
            );
            if game.2 == 3 {
                continue; // (best-reply asks the mover when it passes)
            }
            let r =
                BestReply::new(game.clone()).and_then(|mut v| search_parallel(&mut v, &mut opts()));
            assert_eq!(
                r.map(|r| r.value),
                Err(error),
                "best-reply, {threads} threads"
            );
        }
    }
}

#[test]
fn a_line_of_200000_plies_is_searched_to_its_end() {
    // One move a position, three players in turn; the last to move gets the point.
    struct Line(u32);
    impl Game for Line {
        fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
            out.push(0);
            Ok(())
        }
        fn play(&mut self, _: Move) {
            self.0 += 1
        }
        fn undo(&mut self, _: Move) {
            self.0 -= 1
        }
        fn outcome(&mut self) -> Option<i32> {
            None
        }
        fn evaluate(&mut self) -> i32 {
            0
        }
        fn players(&mut self) -> usize {
            3
        }
        fn player_to_move(&mut self) -> usize {
            self.0 as usize % 3
        }
        fn player_scores(&mut self, out: &mut [i32]) -> bool {
            if self.0 < 200_000 {
                return false;
            }
            out[(self.0 as usize - 1) % 3] = 1;
            true
        }
    }
    let opts = MaxnOptions {
        iterative_deepening: false,
        ..MaxnOptions::default()
    };
    let r = maxn::search(&mut Line(0), &opts).unwrap();
    assert_eq!(r.scores, vec![0, 1, 0]); // the 200,000th move is player 1's (199,999 % 3)
    assert!(r.proven && r.pv.len() == 200_000);
}

/// Plain best-reply search over Take, written apart: `root` maximises its score at its
/// turns; between two of them, the one reply of any opponent (the others passing) that
/// is worst for it, the players before the replier passing first.
fn brute_brs(g: &mut Take, root: usize, depth: u32) -> i32 {
    let mut v = vec![0; g.taken.len()];
    if g.player_scores(&mut v) {
        return v[root];
    }
    if depth == 0 {
        return g.taken[root];
    }
    let mut moves = Vec::new();
    if g.to_move == root {
        g.moves(&mut moves).unwrap();
        return moves
            .into_iter()
            .map(|m| {
                g.play(m);
                let x = brute_brs(g, root, depth - 1);
                g.undo(m);
                x
            })
            .max()
            .unwrap();
    }
    // The opponents in turn: `before` of them pass, the next replies, the rest pass.
    let mut best = i32::MAX;
    let mut before = 0;
    while g.to_move != root {
        moves.clear();
        g.moves(&mut moves).unwrap();
        for &m in &moves {
            g.play(m);
            let mut after = 0;
            while g.last.is_none() && g.to_move != root {
                g.play(PASS);
                after += 1;
            }
            best = best.min(brute_brs(g, root, depth - 1));
            for _ in 0..after {
                g.undo(PASS);
            }
            g.undo(m);
        }
        g.play(PASS);
        before += 1;
    }
    for _ in 0..before {
        g.undo(PASS);
    }
    best
}

#[test]
fn best_reply_equals_the_brute_force_in_every_method() {
    let methods = [
        Method::AlphaBeta,
        Method::Pvs,
        Method::Exact,
        Method::Minimax,
    ];
    let mut checked = 0;
    // The brute force is slow beyond 8 sticks (a MIN layer holds every opponent's moves).
    let small = take_positions().into_iter().filter(|g| g.total() <= 8);
    for (i, g) in small.enumerate() {
        let root = g.to_move;
        let mut plain = g.clone();
        let want = brute_brs(&mut plain, root, u32::MAX);
        let mut view = BestReply::new(g.clone()).unwrap();
        assert_eq!(view.root_player(), root);
        let method = methods[i % methods.len()];
        let mut opts = Options {
            method,
            table_bytes: [0, 1 << 16][i % 2],
            ..Options::default()
        };
        let r = search(&mut view, &mut opts).unwrap();
        assert_eq!(
            (r.value, r.proven),
            (want, true),
            "{:?} {method:?}",
            g.piles
        );
        assert_eq!(view.game().movers.len(), 0);
        if i % 3 == 0 {
            let want = brute_brs(&mut plain, root, 2);
            let opts = &mut Options {
                max_depth: 2,
                ..Options::default()
            };
            assert_eq!(
                search(&mut view, opts).unwrap().value,
                want,
                "{:?} depth 2",
                g.piles
            );
        }
        if i % 7 == 0 {
            let opts = &mut Options {
                threads: 2,
                ..Options::default()
            };
            assert_eq!(search_parallel(&mut view, opts).unwrap().value, want);
        }
        checked += 1;
    }
    assert!(checked >= 200, "{checked}");
}

#[test]
fn best_reply_needs_a_pass() {
    struct NoPass(Take);
    impl Game for NoPass {
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
            None
        }
        fn evaluate(&mut self) -> i32 {
            0
        }
        fn players(&mut self) -> usize {
            self.0.taken.len()
        }
        fn player_to_move(&mut self) -> usize {
            self.0.to_move
        }
        fn player_scores(&mut self, out: &mut [i32]) -> bool {
            self.0.player_scores(out)
        }
    }
    let mut view = BestReply::new(NoPass(Take::new(&[3, 3], 3))).unwrap();
    let r = search(&mut view, &mut Options::default());
    assert_eq!(r.map(|r| r.value), Err(GameError::NoPass));
    assert_eq!(view.game().0.movers.len(), 0);
}
