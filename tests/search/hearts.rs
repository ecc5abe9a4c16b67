//! Hearts' samples (the native game of issue 52) against what the mover has seen,
//! worked out here apart from the game by reading the line of moves: its hand, the
//! cards played, each other player's count, the suits each has shown it lacks, and the
//! cards the mover passed, which its receiver holds until it plays them; with nothing
//! else known, each unseen card goes to each other player in proportion to its room.
//! Its moves and scores are checked against OpenSpiel's hearts in
//! python/tests/test_hidden.py.

use crate::shared::hearts;

use hearts::Hearts;
use minimax::search::{Game, Move};

/// SplitMix64.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A random deal played `plies` moves past the deal (picks to pass included), with its
/// line; `direction` forces the pass direction.
fn random_position(direction: Move, plies: usize, seed: u64) -> (Hearts, Vec<Move>) {
    let mut g = Hearts::new();
    let mut line = vec![direction];
    g.play(direction);
    let mut r = seed;
    let mut left = plies;
    loop {
        let mut moves = Vec::new();
        if g.is_chance() {
            let mut outs = Vec::new();
            g.outcomes(&mut outs).unwrap();
            moves.extend(outs.iter().map(|o| o.0));
        } else {
            if left == 0 {
                break;
            }
            g.moves(&mut moves).unwrap();
            if moves.is_empty() {
                break;
            }
            left -= 1;
        }
        r = mix(r);
        let mv = moves[(r % moves.len() as u64) as usize];
        g.play(mv);
        line.push(mv);
    }
    (g, line)
}

/// What the line says, read here: each player's cards and picks, the voids, the
/// mover, and whether the passes have gone over.
struct Reading {
    hands: [u64; 4],
    picked: [u64; 4],
    voids: [u8; 4],
    mover: usize,
    passing: bool,
    direction: usize,
}

fn read(line: &[Move]) -> Reading {
    let direction = line[0] as usize;
    let mut hands = [0u64; 4];
    for (i, &card) in line[1..53].iter().enumerate() {
        hands[i % 4] |= 1 << card;
    }
    let mut picked = [0u64; 4];
    let mut rest = &line[53..];
    let picks = if direction == 0 {
        0
    } else {
        rest.len().min(12)
    };
    for (j, &card) in rest[..picks].iter().enumerate() {
        hands[j / 3] &= !(1 << card);
        picked[j / 3] |= 1 << card;
    }
    rest = &rest[picks..];
    let passing = direction != 0 && picks < 12;
    if passing {
        let mover = picks / 3;
        return Reading {
            hands,
            picked,
            voids: [0; 4],
            mover,
            passing,
            direction,
        };
    }
    for p in 0..4 {
        hands[(p + direction) % 4] |= picked[p];
    }
    let mut leader = (0..4).find(|&p| hands[p] & 1 != 0).unwrap();
    let mut voids = [0u8; 4];
    for trick in rest.chunks(4) {
        for (i, &card) in trick.iter().enumerate() {
            let p = (leader + i) % 4;
            hands[p] &= !(1 << card);
            if card % 4 != trick[0] % 4 {
                voids[p] |= 1 << (trick[0] % 4);
            }
        }
        if trick.len() == 4 {
            let best = (0..4)
                .filter(|&i| trick[i] % 4 == trick[0] % 4)
                .max_by_key(|&i| trick[i])
                .unwrap();
            leader = (leader + best) % 4;
        }
    }
    let mover = (leader + rest.len() % 4) % 4;
    Reading {
        hands,
        picked,
        voids,
        mover,
        passing,
        direction,
    }
}

#[test]
fn samples_keep_what_the_mover_has_seen() {
    let mut checked = 0;
    for seed in 0..240u64 {
        let (mut g, line) = random_position((seed % 4) as Move, (seed as usize * 7) % 60, seed);
        if g.is_chance() || g.player_scores(&mut [0; 4]) {
            continue;
        }
        let seen = read(&line);
        let me = seen.mover;
        assert_eq!(g.player_to_move(), me, "the mover, read apart");
        let key = g.information_key();
        // The others' cards: while picking, their picks so far too.
        let unseen: u64 = (0..4).filter(|&p| p != me).fold(0, |a, p| {
            a | seen.hands[p] | if seen.passing { seen.picked[p] } else { 0 }
        });
        for k in 0..20 {
            let mut s = g;
            assert!(s.sample(mix(seed * 100 + k)));
            assert_eq!(s.information_key(), key, "the mover's view is kept");
            assert_eq!(s.hand(me), seen.hands[me], "the mover's hand");
            let mut moves = Vec::new();
            s.moves(&mut moves).unwrap();
            let mut truth = Vec::new();
            g.moves(&mut truth).unwrap();
            assert_eq!(moves, truth, "the mover's moves");
            let mut all = 0;
            for p in (0..4).filter(|&p| p != me) {
                let h = s.hand(p);
                assert_eq!(
                    h.count_ones(),
                    seen.hands[p].count_ones(),
                    "player {p}'s count"
                );
                for suit in 0..4 {
                    if seen.voids[p] >> suit & 1 == 1 {
                        assert_eq!(h & (0x0001_1111_1111_1111 << suit), 0, "a void kept");
                    }
                }
                all |= h;
            }
            if seen.passing {
                // Picks so far are part of each other player's hidden cards.
                // (The sample's picks are not shown: its hands and counts say enough.)
                let picks: u32 = (0..4)
                    .filter(|&p| p != me)
                    .map(|p| seen.picked[p].count_ones())
                    .sum();
                assert_eq!(
                    (all.count_ones() + picks) as u64,
                    unseen.count_ones() as u64
                );
                assert_eq!(all & !unseen, 0, "only unseen cards dealt");
            } else {
                assert_eq!(all, unseen, "the others hold the unseen cards");
                if seen.direction != 0 {
                    let to = (me + seen.direction) % 4;
                    let passed = seen.picked[me] & !played(&line);
                    assert_eq!(
                        s.hand(to) & passed,
                        passed,
                        "the mover's passes with their receiver"
                    );
                }
            }
            checked += 1;
        }
    }
    assert!(checked > 3000, "{checked}");
}

/// The cards played in `line` (after the deal and the passes).
fn played(line: &[Move]) -> u64 {
    let skip = if line[0] == 0 { 53 } else { 65 };
    line.iter().skip(skip).fold(0, |a, &c| a | 1 << c)
}

#[test]
fn with_nothing_known_each_card_goes_by_room() {
    // No passes and a trick and a half played: most unseen cards could be anywhere.
    let mut found = 0;
    for seed in 0..200u64 {
        let (mut g, line) = random_position(0, 6, seed);
        let seen = read(&line);
        if seen.voids.iter().any(|&v| v != 0) {
            continue;
        }
        let me = seen.mover;
        let others: Vec<usize> = (0..4).filter(|&p| p != me).collect();
        let room: Vec<u32> = others.iter().map(|&p| seen.hands[p].count_ones()).collect();
        let total: u32 = room.iter().sum();
        let card = (0..52)
            .find(|&c| others.iter().any(|&p| seen.hands[p] >> c & 1 == 1))
            .unwrap();
        let n = 6000;
        let mut counts = [0u32; 4];
        for k in 0..n {
            let mut s = g;
            assert!(s.sample(mix(seed << 20 | k)));
            for (i, &p) in others.iter().enumerate() {
                counts[i] += (s.hand(p) >> card & 1) as u32;
            }
        }
        for i in 0..3 {
            let want = room[i] as f64 / total as f64;
            let got = counts[i] as f64 / n as f64;
            let se = (want * (1.0 - want) / n as f64).sqrt();
            assert!(
                (got - want).abs() < 4.5 * se,
                "card {card}: {counts:?} against rooms {room:?}"
            );
        }
        let _ = g.information_key();
        found += 1;
        if found == 5 {
            return;
        }
    }
    panic!("too few positions with nothing known: {found}");
}

#[test]
fn undo_takes_back_every_move() {
    for seed in 0..40u64 {
        let (mut g, line) = random_position((seed % 4) as Move, 200, seed);
        let mut start = Hearts::new();
        assert!(g.player_scores(&mut [0; 4]), "played to the end");
        for &mv in line.iter().rev() {
            g.undo(mv);
        }
        assert_eq!(format!("{g:?}"), format!("{:?}", start), "seed {seed}");
        start.play(line[0]);
    }
}

/// Hearts whose own playout is counted, and may lie by `lie` points above the bounds.
#[derive(Clone)]
struct Counted {
    game: Hearts,
    calls: std::rc::Rc<std::cell::Cell<u64>>,
    lie: i32,
}

impl Game for Counted {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), minimax::search::GameError> {
        self.game.moves(out)
    }
    fn play(&mut self, mv: Move) {
        self.game.play(mv)
    }
    fn undo(&mut self, mv: Move) {
        self.game.undo(mv)
    }
    fn outcome(&mut self) -> Option<i32> {
        None
    }
    fn evaluate(&mut self) -> i32 {
        0
    }
    fn players(&mut self) -> usize {
        4
    }
    fn player_to_move(&mut self) -> usize {
        self.game.player_to_move()
    }
    fn player_scores(&mut self, out: &mut [i32]) -> bool {
        self.game.player_scores(out)
    }
    fn player_bounds(&mut self) -> Option<(i32, i32)> {
        self.game.player_bounds()
    }
    fn information_key(&mut self) -> Option<u64> {
        self.game.information_key()
    }
    fn sample(&mut self, seed: u64) -> bool {
        self.game.sample(seed)
    }
    fn playout(&mut self, seed: u64, out: &mut [i32]) -> bool {
        self.calls.set(self.calls.get() + 1);
        let over = self.game.playout(seed, out);
        out[0] += self.lie;
        over
    }
}

#[test]
fn ismcts_plays_out_by_the_game_once_out_of_its_tree() {
    use minimax::search::GameError;
    use minimax::search::ismcts::{self, IsmctsOptions};
    let (game, _) = random_position(1, 14, 5);
    let calls = std::rc::Rc::new(std::cell::Cell::new(0));
    let g = Counted {
        game,
        calls: calls.clone(),
        lie: 0,
    };
    let opts = IsmctsOptions {
        iterations: 400,
        ..IsmctsOptions::default()
    };
    let r = ismcts::search(&g, &opts).unwrap();
    // Eleven tricks and a half are left: no iteration ends inside the tree.
    assert_eq!(calls.get(), 400, "{r:?}");
    let plain = ismcts::search(&game, &opts).unwrap();
    assert_eq!(
        r.best_move, plain.best_move,
        "the same search, the same seed"
    );
    // Above the bounds: an error, as a final score there would be.
    let lying = Counted { lie: 79, ..g };
    assert_eq!(
        ismcts::search(&lying, &opts).unwrap_err(),
        GameError::ScoreOutsideBounds
    );
}
