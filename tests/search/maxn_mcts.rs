//! n-player MCTS (max^n backups): the solver's proofs against a brute force written
//! here, apart from the library (max^n over each player's reward, the mean by
//! probability at chance steps, ties to the first move); threads, tree reuse and the
//! errors.

use crate::shared::players;

use minimax::search::maxn_mcts::{MaxnMcts, MaxnMctsOptions, PlayerReward};
use minimax::search::{Game, GameError, Move};
use players::{Forest, Take};

/// Each player's reward for final scores: the top scorers share 1, or (scaled) each
/// score over the range the bounds `(lo, sum)` leave it.
fn rewards(scores: &[i32], scaled: Option<(i32, i32)>) -> Vec<f64> {
    if let Some((lo, sum)) = scaled {
        let range = (sum - lo * scores.len() as i32) as f64;
        return scores.iter().map(|&s| (s - lo) as f64 / range).collect();
    }
    let top = *scores.iter().max().unwrap();
    let k = scores.iter().filter(|&&s| s == top).count() as f64;
    let share = |&s: &i32| if s == top { 1.0 / k } else { 0.0 };
    scores.iter().map(share).collect()
}

/// Expectimax-n over the rewards to the end: the rewards and the move (first of the
/// best for the mover).
fn brute<G: Game>(g: &mut G, scaled: Option<(i32, i32)>) -> (Vec<f64>, Option<Move>) {
    let n = g.players();
    let mut s = vec![0; n];
    if g.player_scores(&mut s) {
        return (rewards(&s, scaled), None);
    }
    if g.is_chance() {
        let mut outs = Vec::new();
        g.outcomes(&mut outs).unwrap();
        let total: f64 = outs.iter().map(|o| o.1).sum();
        let mut v = vec![0.0; n];
        for (o, w) in outs {
            g.play(o);
            let (child, _) = brute(g, scaled);
            g.undo(o);
            for p in 0..n {
                v[p] += w / total * child[p];
            }
        }
        return (v, None);
    }
    let p = g.player_to_move();
    let mut moves = Vec::new();
    g.moves(&mut moves).unwrap();
    let mut best: Option<(Vec<f64>, Move)> = None;
    for m in moves {
        g.play(m);
        let (child, _) = brute(g, scaled);
        g.undo(m);
        if best.as_ref().is_none_or(|(b, _)| child[p] > b[p]) {
            best = Some((child, m));
        }
    }
    let (v, m) = best.unwrap();
    (v, Some(m))
}

fn solve() -> MaxnMctsOptions<'static> {
    MaxnMctsOptions {
        playouts: 0,
        ..MaxnMctsOptions::default()
    }
}

fn close(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-9)
}

/// Proves `g` with `opts` and checks the proof and the move against the brute force.
fn check<G: Game + Clone + Send>(g: &mut G, opts: &MaxnMctsOptions<'_>, what: &str) {
    let scaled = (opts.reward == PlayerReward::Scaled).then(|| g.player_bounds().unwrap());
    let (want, mv) = brute(g, scaled);
    let r = if opts.threads > 1 {
        MaxnMcts::new().search_parallel(g, opts)
    } else {
        MaxnMcts::new().search(g, opts)
    }
    .unwrap();
    let proven = r.proven.unwrap_or_else(|| panic!("{what}: not proven"));
    assert!(close(&proven, &want), "{what}: {proven:?} != {want:?}");
    assert_eq!(r.best_move, mv, "{what}");
    assert!(close(&r.values, &want) || mv.is_none(), "{what}");
}

#[test]
fn proofs_equal_the_brute_force_on_random_trees() {
    let mut checked = 0;
    for seed in 0..400u64 {
        for n in [3, 4, 5] {
            let mut g = Forest::new(seed, n);
            check(&mut g, &solve(), &format!("forest {seed}/{n}"));
            checked += 1;
        }
    }
    assert_eq!(checked, 1200);
}

#[test]
fn proofs_through_chance_steps_equal_the_expectation() {
    let mut with_chance = 0;
    for seed in 0..400u64 {
        let mut g = Forest::new(seed, 3);
        g.chance = true;
        let mut any = false;
        // (Some roots have no chance step below them: counted apart.)
        let mut probe = g.clone();
        let mut moves = Vec::new();
        probe.moves(&mut moves).unwrap();
        for m in moves {
            probe.play(m);
            any |= probe.is_chance();
            probe.undo(m);
        }
        check(&mut g, &solve(), &format!("chance forest {seed}"));
        with_chance += usize::from(any);
    }
    assert!(with_chance > 50, "{with_chance} roots with a chance child");
}

#[test]
fn proofs_equal_the_brute_force_on_take_with_both_rewards() {
    let mut checked = 0;
    for players in [3, 4] {
        for a in 1..=4u8 {
            for b in 0..=3u8 {
                let piles: Vec<u8> = [a, b].into_iter().filter(|&p| p > 0).collect();
                for reward in [PlayerReward::Win, PlayerReward::Scaled] {
                    let mut g = Take::new(&piles, players);
                    g.to_move = (a + b) as usize % players;
                    g.taken[a as usize % players] = b as i32 % 2;
                    let opts = MaxnMctsOptions { reward, ..solve() };
                    check(
                        &mut g,
                        &opts,
                        &format!("take {piles:?}/{players} {reward:?}"),
                    );
                    assert!(g.movers.is_empty(), "the game is left as it was");
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 64);
}

#[test]
fn two_threads_prove_the_same_values() {
    for seed in 0..60u64 {
        let mut g = Forest::new(seed, 4);
        g.chance = seed % 2 == 0;
        let opts = MaxnMctsOptions {
            threads: 2,
            ..solve()
        };
        check(&mut g, &opts, &format!("forest {seed} on 2 threads"));
    }
}

#[test]
fn one_seed_gives_one_result_and_budgets_are_kept() {
    let opts = MaxnMctsOptions {
        playouts: 700,
        ..MaxnMctsOptions::default()
    };
    let mut g = Take::new(&[5, 5, 4], 3);
    let a = MaxnMcts::new().search(&mut g, &opts).unwrap();
    let b = MaxnMcts::new().search(&mut g, &opts).unwrap();
    assert_eq!(
        a,
        MaxnMctsResult {
            elapsed: a.elapsed,
            ..b
        }
    );
    assert_eq!(a.playouts, 700);
    assert_eq!(a.root.iter().map(|s| s.visits).sum::<u64>(), 700);
    let two = MaxnMctsOptions { threads: 2, ..opts };
    let c = MaxnMcts::new().search_parallel(&mut g, &two).unwrap();
    assert_eq!((c.threads, c.playouts), (2, 700));
    assert_eq!(c.root.iter().map(|s| s.visits).sum::<u64>(), 700);
    let small = MaxnMctsOptions {
        max_nodes: 50,
        ..opts
    };
    let d = MaxnMcts::new().search(&mut g, &small).unwrap();
    assert!(d.tree_full && d.nodes <= 50 && d.playouts == 700, "{d:?}");
}

use minimax::search::maxn_mcts::MaxnMctsResult;

#[test]
fn a_kept_tree_goes_on_from_the_move_played() {
    let mut g = Take::new(&[5, 5, 5, 4], 3);
    let mut search = MaxnMcts::new();
    let opts = MaxnMctsOptions {
        playouts: 3_000,
        ..MaxnMctsOptions::default()
    };
    let r = search.search(&mut g, &opts).unwrap();
    let mv = r.best_move.unwrap();
    let visits = r.root.iter().find(|s| s.mv == mv).unwrap().visits;
    g.play(mv);
    search.advance(mv);
    assert!(search.nodes() > 10, "{} nodes kept", search.nodes());
    let again = search.search(&mut g, &opts).unwrap();
    assert_eq!(again.proven, None);
    let kept: u64 = again.root.iter().map(|s| s.visits).sum();
    assert!(
        kept > 3_000 + visits / 2,
        "{kept} visits after {visits} kept"
    );
    // A move the tree does not hold clears it, and a position with another mover too.
    search.advance(-5);
    assert_eq!(search.nodes(), 0);
    let r = search.search(&mut g, &opts).unwrap();
    assert!(r.root.iter().map(|s| s.visits).sum::<u64>() < 3_000 + visits / 2);
    g.to_move = (g.to_move + 1) % 3;
    let r = search.search(&mut g, &opts).unwrap();
    assert!(r.root.iter().map(|s| s.visits).sum::<u64>() < 3_000 + visits / 2);
}

/// Take without bounds, or with a player out of range.
struct Broken(Take, usize);

impl Game for Broken {
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
        self.0.players()
    }
    fn player_to_move(&mut self) -> usize {
        self.0.player_to_move() + self.1
    }
    fn player_scores(&mut self, out: &mut [i32]) -> bool {
        self.0.player_scores(out)
    }
}

#[test]
fn broken_options_and_games_are_errors() {
    let mut g = Broken(Take::new(&[3, 2], 3), 0);
    let scaled = MaxnMctsOptions {
        reward: PlayerReward::Scaled,
        ..MaxnMctsOptions::default()
    };
    let e = MaxnMcts::new().search(&mut g, &scaled).unwrap_err();
    assert_eq!(e, GameError::NeedsBounds);
    let bad = MaxnMctsOptions {
        exploration: f64::NAN,
        ..MaxnMctsOptions::default()
    };
    let e = MaxnMcts::new().search(&mut g, &bad).unwrap_err();
    assert_eq!(e, GameError::BadExploration);
    g.1 = 3;
    let e = MaxnMcts::new().search(&mut g, &MaxnMctsOptions::default());
    assert_eq!(e.unwrap_err(), GameError::BadPlayer);
    let mut f = Forest::new(0, 3);
    f.chance = true;
    for seed in 0.. {
        f = Forest::new(seed, 3);
        f.chance = true;
        let mut moves = Vec::new();
        f.moves(&mut moves).unwrap();
        f.play(moves[0]);
        if f.is_chance() {
            break;
        }
    }
    let e = MaxnMcts::new().search(&mut f, &MaxnMctsOptions::default());
    assert_eq!(e.unwrap_err(), GameError::ChanceRoot);
}

/// Take, with a playout of its own that lies: whatever the position, it says the last
/// player won with every point. The search must use it, hold it to the bounds, and
/// never let it reach a proof.
struct Lying {
    take: Take,
    playouts: u64,
    /// The lie's scores: each player's, the last given the rest.
    lie: Vec<i32>,
}

impl Game for Lying {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        self.take.moves(out)
    }
    fn play(&mut self, mv: Move) {
        self.take.play(mv)
    }
    fn undo(&mut self, mv: Move) {
        self.take.undo(mv)
    }
    fn outcome(&mut self) -> Option<i32> {
        None
    }
    fn evaluate(&mut self) -> i32 {
        0
    }
    fn players(&mut self) -> usize {
        self.take.players()
    }
    fn player_to_move(&mut self) -> usize {
        self.take.player_to_move()
    }
    fn player_scores(&mut self, out: &mut [i32]) -> bool {
        self.take.player_scores(out)
    }
    fn player_bounds(&mut self) -> Option<(i32, i32)> {
        self.take.player_bounds()
    }
    fn playout(&mut self, _seed: u64, out: &mut [i32]) -> bool {
        self.playouts += 1;
        out.copy_from_slice(&self.lie);
        true
    }
}

#[test]
fn a_game_s_own_playout_is_used_held_to_the_bounds_and_never_proves() {
    let lying = |piles: &[u8], lie: Vec<i32>| Lying {
        take: Take::new(piles, 3),
        playouts: 0,
        lie,
    };
    let mut g = lying(&[6, 6, 6], vec![0, 0, 0]);
    let total = g.take.player_bounds().unwrap().1;
    g.lie[2] = total;
    // Counted: with a budget, each playout from a position not final is the game's.
    let opts = MaxnMctsOptions {
        playouts: 200,
        ..MaxnMctsOptions::default()
    };
    let r = MaxnMcts::new().search(&mut g, &opts).unwrap();
    assert!(g.playouts > 100 && g.playouts <= 200, "{}", g.playouts);
    let open = r.root.iter().filter(|s| s.proven.is_none());
    assert!(
        open.clone().count() > 0 && open.clone().all(|s| s.means[2] > 0.9),
        "the lie is what the search saw: {r:?}"
    );
    // Not asked where a playout stops early, to be scored by the evaluations.
    g.playouts = 0;
    let early = MaxnMctsOptions {
        playout_depth: 3,
        ..opts
    };
    MaxnMcts::new().search(&mut g, &early).unwrap();
    assert_eq!(g.playouts, 0);
    // Solved to the end, the proof is the brute force's, whatever the playouts said.
    let mut g = lying(&[3, 4], vec![0, 0, 0]);
    g.lie[2] = g.take.player_bounds().unwrap().1;
    let mut plain = Take::new(&[3, 4], 3);
    let (want, mv) = brute(&mut plain, None);
    let r = MaxnMcts::new().search(&mut g, &solve()).unwrap();
    assert!(g.playouts > 0);
    assert!(
        close(r.proven.as_deref().unwrap(), &want),
        "{r:?} against {want:?}"
    );
    assert_eq!(r.best_move, mv);
    // Outside the game's bounds: an error, as a final score there would be.
    let mut g = lying(&[6, 6, 6], vec![0, 0, total + 1]);
    let e = MaxnMcts::new().search(&mut g, &opts).unwrap_err();
    assert_eq!(e, GameError::ScoreOutsideBounds);
}
