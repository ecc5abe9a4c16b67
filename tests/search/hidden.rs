//! Hidden information: Tiny Whist's `sample`, PIMC and ISMCTS against a reference
//! written here, apart from the library: every deal consistent with what the player to
//! move has seen (the other hand drawn from the unseen cards such that each card it
//! played was legal when played), each solved by a plain minimax, and each root move's
//! value averaged over them.

#[path = "../../examples/hidden/whist.rs"]
mod whist;

use std::collections::HashSet;

use minimax::search::ismcts::{self, IsmctsOptions, IsmctsResult};
use minimax::search::pimc::{self, Combine, PimcOptions, Valued};
use minimax::search::{Game, GameError, Method, Move, Options, search};
use whist::Whist;

/// Plain minimax over the game's moves: the value in MAX's (player 0's) view.
fn minimax(g: &mut Whist) -> i32 {
    if let Some(v) = g.outcome() {
        return v;
    }
    let max = g.to_move == 0;
    let mut moves = Vec::new();
    g.moves(&mut moves).unwrap();
    let values = moves.into_iter().map(|m| {
        g.play(m);
        let v = minimax(g);
        g.undo(m);
        v
    });
    let values: Vec<i32> = values.collect();
    if max {
        *values.iter().max().unwrap()
    } else {
        *values.iter().min().unwrap()
    }
}

/// Whether `hand` (the other player's cards now) with the cards it played could have
/// played as it did: at each of its plays that followed a lead, it held a card of the
/// suit led only if it played one.
fn consistent(g: &Whist, other: usize, hand: u32) -> bool {
    // Its hand before the play of index i: hand plus every card it played from i on.
    let mut held = hand;
    let plays = &g.played;
    for i in (0..plays.len()).rev() {
        let (p, c) = plays[i];
        if p != other {
            continue;
        }
        held |= 1 << c;
        // A follow: an odd position within its trick (tricks are pairs of plays).
        if i % 2 == 1 {
            let led = plays[i - 1].1;
            let suit = (0..g.ranks).map(|r| led / g.ranks * g.ranks + r);
            let had_suit = suit.clone().any(|s| held >> s & 1 == 1);
            if had_suit && c / g.ranks != led / g.ranks {
                return false;
            }
        }
    }
    true
}

/// Every deal the player to move cannot tell from this one: the other hand, any set of
/// its size from the cards the mover has not seen, kept where consistent.
fn deals(g: &Whist) -> Vec<Whist> {
    let (me, other) = (g.to_move, 1 - g.to_move);
    let mut seen = g.hands[me];
    for &(_, c) in &g.played {
        seen |= 1 << c;
    }
    let deck = g.suits * g.ranks;
    let unseen: Vec<u32> = (0..deck).filter(|c| seen >> c & 1 == 0).collect();
    let k = g.hands[other].count_ones() as usize;
    let mut out = Vec::new();
    for subset in 0u32..1 << unseen.len() {
        if subset.count_ones() as usize != k {
            continue;
        }
        let hand = unseen
            .iter()
            .enumerate()
            .filter(|(i, _)| subset >> i & 1 == 1)
            .fold(0, |h, (_, &c)| h | 1 << c);
        if consistent(g, other, hand) {
            let mut d = g.clone();
            d.hands[other] = hand;
            out.push(d);
        }
    }
    out
}

/// Positions: deals of 2 and 3 suits, 3 or 4 ranks, hands of 2 or 3, after 0 to 4 cards
/// played at random.
fn positions() -> Vec<Whist> {
    let mut out = Vec::new();
    for seed in 0..140u64 {
        for (suits, ranks, hand) in [(2, 3, 2), (2, 4, 3), (3, 3, 3), (3, 4, 3)] {
            let mut g = Whist::deal(suits, ranks, hand, seed);
            let plies = whist::mix(seed ^ 99) % 5;
            let mut r = seed;
            for _ in 0..plies {
                let mut moves = Vec::new();
                g.moves(&mut moves).unwrap();
                if moves.is_empty() {
                    break;
                }
                r = whist::mix(r);
                g.play(moves[(r % moves.len() as u64) as usize]);
            }
            if !g.over() {
                out.push(g);
            }
        }
    }
    out
}

/// The engine's exact solve of a sample's child.
fn exact<G: Game>(g: &mut G, max: bool) -> Result<Valued, GameError> {
    let mut opts = Options {
        method: Method::Exact,
        max_at_root: max,
        ..Options::default()
    };
    search(g, &mut opts).map(|r| Valued::from(&r))
}

#[test]
fn pimc_over_every_deal_equals_the_expectation() {
    let mut checked = 0;
    for g in positions() {
        let all = deals(&g);
        assert!(!all.is_empty());
        // The reference: each move's exact value averaged over the deals.
        let mut moves = Vec::new();
        g.clone().moves(&mut moves).unwrap();
        let want: Vec<f64> = moves
            .iter()
            .map(|&m| {
                let sum: i32 = all
                    .iter()
                    .map(|d| {
                        let mut d = d.clone();
                        d.play(m);
                        minimax(&mut d)
                    })
                    .sum();
                sum as f64 / all.len() as f64
            })
            .collect();
        let mut samples: Vec<(Whist, f64)> = all.into_iter().map(|d| (d, 1.0)).collect();
        let r = pimc::search_samples(&mut samples, Combine::Mean, true, exact).unwrap();
        let got: Vec<(Move, f64)> = r.moves.iter().map(|m| (m.mv, m.mean)).collect();
        let expected: Vec<(Move, f64)> = moves.iter().copied().zip(want.iter().copied()).collect();
        assert_eq!(got.len(), expected.len());
        for ((m, v), (wm, wv)) in got.iter().zip(&expected) {
            assert_eq!(m, wm);
            assert!((v - wv).abs() < 1e-9, "{v} against {wv}");
        }
        assert!(r.proven);
        // On two threads, the same figures (combined in the samples' order).
        let p = pimc::search_samples_parallel(&mut samples, Combine::Mean, true, 2, exact).unwrap();
        assert_eq!(
            (&p.moves, p.best_move, p.nodes),
            (&r.moves, r.best_move, r.nodes)
        );
        // The move: the first with the best mean for the mover.
        let max = g.to_move == 0;
        let best = (0..want.len()).fold(0, |b, i| {
            if (max && want[i] > want[b]) || (!max && want[i] < want[b]) {
                i
            } else {
                b
            }
        });
        assert_eq!(r.best_move, Some(moves[best]));
        checked += 1;
    }
    assert!(checked >= 500, "{checked}");
    println!("{checked} positions: PIMC over every deal equals the expectation");
}

#[test]
fn samples_keep_what_the_mover_has_seen_and_reach_every_deal() {
    for g in positions().into_iter().step_by(10) {
        let all: HashSet<u32> = deals(&g).iter().map(|d| d.hands[1 - d.to_move]).collect();
        let key = g.clone().information_key();
        let mut drawn = HashSet::new();
        for seed in 0..400 {
            let mut s = g.clone();
            assert!(s.sample(seed));
            assert_eq!(s.information_key(), key);
            let hand = s.hands[1 - s.to_move];
            assert!(all.contains(&hand), "an inconsistent deal");
            drawn.insert(hand);
        }
        if all.len() <= 20 {
            assert_eq!(drawn, all, "every deal drawn");
        }
    }
}

#[test]
fn pimc_by_sampling_and_by_votes() {
    let g = Whist::deal(3, 4, 3, 7);
    let opts = PimcOptions {
        samples: 30,
        seed: 1,
        combine: Combine::Votes,
    };
    let r = pimc::search_sampled(&g, &opts, exact).unwrap();
    assert_eq!(r.samples, 30);
    let votes: f64 = r.moves.iter().map(|m| m.votes).sum();
    assert!((votes - 30.0).abs() < 1e-9);
    let top = r.moves.iter().map(|m| m.votes).fold(0.0, f64::max);
    let chosen = r.moves.iter().find(|m| Some(m.mv) == r.best_move).unwrap();
    assert_eq!(chosen.votes, top);
    // The same seed, the same answer, on one thread or three.
    assert_eq!(
        pimc::search_sampled(&g, &opts, exact).unwrap().moves,
        r.moves
    );
    let p = pimc::search_sampled_parallel(&g, &opts, 3, exact).unwrap();
    assert_eq!((p.moves, p.best_move), (r.moves, r.best_move));
}

/// Each root move's value in every consistent deal, by the plain minimax: the moves and,
/// a deal a row, their values.
fn values_by_deal(g: &Whist) -> (Vec<Move>, Vec<Vec<i32>>) {
    let mut moves = Vec::new();
    g.clone().moves(&mut moves).unwrap();
    let rows = deals(g)
        .into_iter()
        .map(|mut d| {
            moves
                .iter()
                .map(|&m| {
                    d.play(m);
                    let v = minimax(&mut d);
                    d.undo(m);
                    v
                })
                .collect()
        })
        .collect();
    (moves, rows)
}

#[test]
fn ismcts_sees_only_what_the_mover_sees() {
    // Two deals the mover cannot tell apart get the same search, move for move.
    for g in positions().into_iter().step_by(25) {
        let mut other = g.clone();
        assert!(other.sample(12345));
        let opts = IsmctsOptions {
            iterations: 300,
            seed: 9,
            ..IsmctsOptions::default()
        };
        let a = ismcts::search(&g, &opts).unwrap();
        let b = ismcts::search(&other, &opts).unwrap();
        assert_eq!(
            a,
            IsmctsResult {
                elapsed: a.elapsed,
                ..b
            }
        );
        assert_eq!(a.iterations, 300);
        assert_eq!(a.root.iter().map(|m| m.visits).sum::<u64>(), 300);
    }
}

#[test]
fn ismcts_chooses_the_best_expected_reward_where_it_is_the_last_choice() {
    // Two cards each, the first led: the follower's card is the last choice of the game
    // (the last trick is forced), so each of its moves has a fixed result in each deal,
    // and its expected reward (a win 1, a draw 1/2) over the consistent deals is exact.
    // Where one move's is ahead of every other's by 0.1, ISMCTS must choose it.
    let mut checked = 0;
    for seed in 0..400u64 {
        for (suits, ranks) in [(2, 3), (2, 4), (3, 3), (3, 4)] {
            let mut g = Whist::deal(suits, ranks, 2, seed);
            let mut moves = Vec::new();
            g.moves(&mut moves).unwrap();
            g.play(moves[(whist::mix(seed) % moves.len() as u64) as usize]);
            let (moves, rows) = values_by_deal(&g);
            // The follower is player 1 (MIN): its reward is a win for a negative score.
            let reward = |v: i32| match v.signum() {
                -1 => 1.0,
                0 => 0.5,
                _ => 0.0,
            };
            let expected: Vec<f64> = (0..moves.len())
                .map(|i| rows.iter().map(|r| reward(r[i])).sum::<f64>() / rows.len() as f64)
                .collect();
            let best =
                (0..moves.len()).fold(0, |b, i| if expected[i] > expected[b] { i } else { b });
            if (0..moves.len()).any(|j| j != best && expected[best] - expected[j] < 0.1) {
                continue;
            }
            let r = ismcts::search(
                &g,
                &IsmctsOptions {
                    iterations: 2000,
                    seed,
                    ..IsmctsOptions::default()
                },
            )
            .unwrap();
            assert_eq!(r.best_move, Some(moves[best]), "seed {seed}: {expected:?}");
            checked += 1;
        }
    }
    assert!(checked >= 100, "{checked}");
    println!("{checked} last choices: ISMCTS chose the best expected reward");
}

/// Guess the hidden card: MAX (player 0) plays safe (2 points) or plays on; then MIN
/// puts down card A or B face down, and MAX names one: 10 if right, -10 if wrong. Worked
/// out by hand: MIN mixes evenly, so playing on is worth 0 to MAX, and safe is best.
/// Only MIN sees its card: to MAX it is `HIDDEN`.
#[derive(Clone)]
struct GuessCard {
    line: Vec<Move>,
}

const SAFE: Move = 0;
const PLAY: Move = 1;
const CARD_A: Move = 2;
const CARD_B: Move = 3;
const NAME_A: Move = 4;
const NAME_B: Move = 5;
const HIDDEN: Move = 6;

impl Game for GuessCard {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        match self.line.as_slice() {
            [] => out.extend([SAFE, PLAY]),
            [PLAY] => out.extend([CARD_A, CARD_B]),
            [PLAY, _] => out.extend([NAME_A, NAME_B]),
            _ => {}
        }
        Ok(())
    }
    fn play(&mut self, mv: Move) {
        self.line.push(mv);
    }
    fn undo(&mut self, _: Move) {
        self.line.pop();
    }
    fn outcome(&mut self) -> Option<i32> {
        match self.line.as_slice() {
            [SAFE] => Some(2),
            [PLAY, card, name] => Some(if name - card == 2 { 10 } else { -10 }),
            _ => None,
        }
    }
    fn evaluate(&mut self) -> i32 {
        0
    }
    fn max_to_move(&mut self) -> Option<bool> {
        Some(self.line.len() != 1)
    }
    fn bounds(&mut self) -> Option<(i32, i32)> {
        Some((-10, 10))
    }
    fn sample(&mut self, _: u64) -> bool {
        true // nothing is hidden at MAX's first move
    }
    fn observed_move(&mut self, mv: Move, player: usize) -> Move {
        if player == 0 && (mv == CARD_A || mv == CARD_B) {
            HIDDEN
        } else {
            mv
        }
    }
}

#[test]
fn multi_observer_ismcts_does_not_see_a_card_put_down_face_down() {
    let g = GuessCard { line: Vec::new() };
    let opts = |multi_observer| IsmctsOptions {
        iterations: 20_000,
        reward: minimax::search::maxn_mcts::PlayerReward::Scaled,
        seed: 3,
        multi_observer,
        ..IsmctsOptions::default()
    };
    // One tree branches on the card MAX cannot see, so MAX's naming below it always
    // matches: playing on looks like a sure 10 (the flaw multi-observer ISMCTS is for).
    let single = ismcts::search(&g, &opts(false)).unwrap();
    assert_eq!(single.best_move, Some(PLAY));
    // A tree a player: in MAX's the two cards are one node, so its naming is a guess
    // (worth 0 at best, a reward of 0.5, where MIN mixes evenly; less while MIN's own
    // tree exploits MAX's current favourite), below safe's 2 (0.6).
    let multi = ismcts::search(&g, &opts(true)).unwrap();
    assert_eq!(multi.best_move, Some(SAFE), "{multi:?}");
    let mean = |mv| multi.root.iter().find(|m| m.mv == mv).unwrap().mean;
    assert!(
        mean(PLAY) < 0.55 && (mean(SAFE) - 0.6).abs() < 1e-9,
        "{multi:?}"
    );
}

#[test]
fn multi_observer_ismcts_is_the_single_tree_where_every_move_is_seen() {
    for g in positions().into_iter().step_by(7).take(60) {
        let opts = |multi_observer| IsmctsOptions {
            iterations: 400,
            seed: 5,
            multi_observer,
            ..IsmctsOptions::default()
        };
        let one = ismcts::search(&g, &opts(false)).unwrap();
        let many = ismcts::search(&g, &opts(true)).unwrap();
        assert_eq!((one.best_move, &one.root), (many.best_move, &many.root));
    }
}

/// Guess the card with a sampler that breaks the contract: its samples have other moves
/// at the root than the position (`[PLAY]`: the cards), or are over (`[SAFE]`).
#[derive(Clone)]
struct BrokenSampler {
    game: GuessCard,
    sample_line: Vec<Move>,
}

impl Game for BrokenSampler {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        self.game.moves(out)
    }
    fn play(&mut self, mv: Move) {
        self.game.play(mv)
    }
    fn undo(&mut self, mv: Move) {
        self.game.undo(mv)
    }
    fn outcome(&mut self) -> Option<i32> {
        self.game.outcome()
    }
    fn evaluate(&mut self) -> i32 {
        0
    }
    fn max_to_move(&mut self) -> Option<bool> {
        self.game.max_to_move()
    }
    fn sample(&mut self, _: u64) -> bool {
        self.game.line = self.sample_line.clone();
        true
    }
}

#[test]
fn samples_that_are_not_the_position_are_errors() {
    for sample_line in [vec![PLAY], vec![SAFE]] {
        let g = BrokenSampler {
            game: GuessCard { line: Vec::new() },
            sample_line: sample_line.clone(),
        };
        let pimc = pimc::search_sampled(&g, &PimcOptions::default(), exact);
        assert_eq!(pimc.err(), Some(GameError::BadSample), "{sample_line:?}");
        for multi_observer in [false, true] {
            let opts = IsmctsOptions {
                iterations: 100,
                multi_observer,
                ..IsmctsOptions::default()
            };
            let r = ismcts::search(&g, &opts);
            assert_eq!(r.err(), Some(GameError::BadSample), "{sample_line:?}");
        }
    }
    // Samples given by the caller: each must list the first one's moves.
    let mut samples = vec![
        (GuessCard { line: Vec::new() }, 1.0),
        (GuessCard { line: vec![PLAY] }, 1.0),
    ];
    let r = pimc::search_samples(&mut samples, Combine::Mean, true, exact);
    assert_eq!(r.err(), Some(GameError::BadSample));
}
