//! Two games written as a new user would, from the README and the header (C) or the
//! rustdoc (Rust) alone, solved exactly by the engine and checked against a plain
//! memoised negamax written here: Kalah with 4 pits of 3 seeds (extra turns, captures)
//! and Othello on 4 x 4 (passes). The C versions are tests/c/kalah.c and
//! tests/c/othello4.c.

use crate::common;

use common::{compile, run, scratch, stderr, stdout};
use minimax::search::{Game, GameError, Method, Move, Options, search};
use std::collections::HashMap;

/// Kalah: `pits[0..4]` South's (MAX), `pits[4]` its store, `pits[5..9]` North's, `pits[9]`.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
struct Kalah {
    pits: [u8; 10],
    south: bool,
    history: Vec<([u8; 10], bool)>,
}

const PITS: usize = 4;
const S_STORE: usize = 4;
const N_STORE: usize = 9;

impl Kalah {
    fn new(seeds: u8) -> Self {
        let mut pits = [seeds; 10];
        pits[S_STORE] = 0;
        pits[N_STORE] = 0;
        Kalah {
            pits,
            south: true,
            history: Vec::new(),
        }
    }
    fn first(&self) -> usize {
        if self.south { 0 } else { PITS + 1 }
    }
    fn over(&self) -> bool {
        self.pits[self.first()..self.first() + PITS]
            .iter()
            .all(|&p| p == 0)
    }
    fn final_score(&self) -> i32 {
        let south: i32 = self.pits[..=S_STORE].iter().map(|&p| p as i32).sum();
        let north: i32 = self.pits[PITS + 1..].iter().map(|&p| p as i32).sum();
        south - north
    }
    fn sow(&mut self, i: usize) {
        let (own, other) = if self.south {
            (S_STORE, N_STORE)
        } else {
            (N_STORE, S_STORE)
        };
        let mut at = self.first() + i;
        let mut seeds = std::mem::take(&mut self.pits[at]);
        while seeds > 0 {
            at = (at + 1) % 10;
            if at != other {
                self.pits[at] += 1;
                seeds -= 1;
            }
        }
        if at == own {
            return; // an extra turn
        }
        let own_pit = if self.south {
            at < PITS
        } else {
            at > PITS && at < N_STORE
        };
        let opposite = 2 * PITS - at;
        if own_pit && self.pits[at] == 1 && self.pits[opposite] > 0 {
            self.pits[own] += 1 + self.pits[opposite];
            self.pits[at] = 0;
            self.pits[opposite] = 0;
        }
        self.south = !self.south;
    }
}

impl Game for Kalah {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        let first = self.first();
        out.extend(
            (0..PITS)
                .filter(|&i| self.pits[first + i] > 0)
                .map(|i| i as Move),
        );
        Ok(())
    }
    fn play(&mut self, mv: Move) {
        self.history.push((self.pits, self.south));
        self.sow(mv as usize);
    }
    fn undo(&mut self, _: Move) {
        (self.pits, self.south) = self.history.pop().unwrap();
    }
    fn outcome(&mut self) -> Option<i32> {
        self.over().then(|| self.final_score())
    }
    fn evaluate(&mut self) -> i32 {
        self.pits[S_STORE] as i32 - self.pits[N_STORE] as i32
    }
    fn hash(&mut self) -> Option<u64> {
        Some(
            self.pits
                .iter()
                .fold(self.south as u64, |h, &p| h * 31 + p as u64),
        )
    }
    fn max_to_move(&mut self) -> Option<bool> {
        Some(self.south) // extra turns: the turn is the game's to say
    }
    fn bounds(&mut self) -> Option<(i32, i32)> {
        let now = self.evaluate();
        let left: i32 = self.pits.iter().map(|&p| p as i32).sum::<i32>()
            - self.pits[S_STORE] as i32
            - self.pits[N_STORE] as i32;
        Some((now - left, now + left))
    }
}

/// The final score (MAX's view) by plain minimax over the game, memoised on the position.
fn reference<G: Game + Clone, K: std::hash::Hash + Eq>(
    g: &mut G,
    key: &dyn Fn(&G) -> K,
    memo: &mut HashMap<K, i32>,
) -> i32 {
    if let Some(score) = g.outcome() {
        return score;
    }
    if let Some(&v) = memo.get(&key(g)) {
        return v;
    }
    let max = g.max_to_move().unwrap();
    let mut moves = Vec::new();
    g.moves(&mut moves).unwrap();
    let mut best = if max { i32::MIN } else { i32::MAX };
    for mv in moves {
        let mut child = g.clone();
        child.play(mv);
        let v = reference(&mut child, key, memo);
        best = if max { best.max(v) } else { best.min(v) };
    }
    memo.insert(key(g), best);
    best
}

fn solve<G: Game>(g: &mut G) -> minimax::search::SearchResult {
    let mut opts = Options {
        method: Method::Exact,
        iterative_deepening: false,
        ..Options::default()
    };
    search(g, &mut opts).unwrap()
}

/// Kalah's reference: the store difference still to be won (MAX's view) by plain minimax,
/// memoised on the pits and the turn (the stores do not change what is still to be won).
fn kalah_future(g: &Kalah, memo: &mut HashMap<([u8; 10], bool), i32>) -> i32 {
    let now = g.pits[S_STORE] as i32 - g.pits[N_STORE] as i32;
    if g.over() {
        return g.final_score() - now;
    }
    let mut key = g.pits;
    key[S_STORE] = 0;
    key[N_STORE] = 0;
    if let Some(&v) = memo.get(&(key, g.south)) {
        return v;
    }
    let mut best = if g.south { i32::MIN } else { i32::MAX };
    for i in (0..PITS).filter(|&i| g.pits[g.first() + i] > 0) {
        let mut child = g.clone();
        child.sow(i);
        let gained = child.pits[S_STORE] as i32 - child.pits[N_STORE] as i32 - now;
        let v = gained + kalah_future(&child, memo);
        best = if g.south { best.max(v) } else { best.min(v) };
    }
    memo.insert((key, g.south), best);
    best
}

#[test]
fn kalah_4_pits_3_seeds_matches_plain_minimax() {
    let mut k = Kalah::new(3);
    let r = solve(&mut k);
    let mut memo = HashMap::new();
    let expected = kalah_future(&Kalah::new(3), &mut memo); // the stores start empty
    assert_eq!((r.value, r.proven), (expected, true));
    assert_eq!(k, Kalah::new(3), "the game is left as it was");
    // Proven table entries serve transpositions at other plies (extra turns bring them):
    // the engine visits fewer nodes than twice the positions the reference meets.
    assert!(
        r.stats.nodes < 2 * memo.len() as u64,
        "{} nodes, {} positions",
        r.stats.nodes,
        memo.len()
    );
}

/// Othello on 4 x 4: `black` and `white` hold one bit per square.
#[derive(Clone, PartialEq, Eq, Debug)]
struct Othello {
    black: u16,
    white: u16,
    black_to_move: bool,
    history: Vec<(u16, u16, bool)>,
}

const PASS: Move = -1;

impl Othello {
    fn new() -> Self {
        Othello {
            black: 1 << 6 | 1 << 9,
            white: 1 << 5 | 1 << 10,
            black_to_move: true,
            history: Vec::new(),
        }
    }
    fn flips(&self, sq: i32) -> u16 {
        let (me, them) = if self.black_to_move {
            (self.black, self.white)
        } else {
            (self.white, self.black)
        };
        if (me | them) >> sq & 1 == 1 {
            return 0;
        }
        let mut all = 0;
        for (dr, dc) in [
            (-1, -1),
            (-1, 0),
            (-1, 1),
            (0, -1),
            (0, 1),
            (1, -1),
            (1, 0),
            (1, 1),
        ] {
            let (mut r, mut c, mut line) = (sq / 4 + dr, sq % 4 + dc, 0u16);
            let inside = |r: i32, c: i32| (0..4).contains(&r) && (0..4).contains(&c);
            while inside(r, c) && them >> (r * 4 + c) & 1 == 1 {
                line |= 1 << (r * 4 + c);
                r += dr;
                c += dc;
            }
            if line != 0 && inside(r, c) && me >> (r * 4 + c) & 1 == 1 {
                all |= line;
            }
        }
        all
    }
    fn legal(&self) -> Vec<Move> {
        (0..16)
            .filter(|&s| self.flips(s) != 0)
            .map(|s| s as Move)
            .collect()
    }
    fn ended(&self) -> bool {
        let mut other = self.clone();
        other.black_to_move = !other.black_to_move;
        self.legal().is_empty() && other.legal().is_empty()
    }
}

impl Game for Othello {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        out.extend(self.legal());
        if out.is_empty() {
            out.push(PASS); // not over (outcome said so): the side to move passes
        }
        Ok(())
    }
    fn play(&mut self, mv: Move) {
        self.history
            .push((self.black, self.white, self.black_to_move));
        if mv != PASS {
            let (f, bit) = (self.flips(mv as i32), 1u16 << mv);
            if self.black_to_move {
                self.black |= f | bit;
                self.white &= !f;
            } else {
                self.white |= f | bit;
                self.black &= !f;
            }
        }
        self.black_to_move = !self.black_to_move;
    }
    fn undo(&mut self, _: Move) {
        (self.black, self.white, self.black_to_move) = self.history.pop().unwrap();
    }
    fn outcome(&mut self) -> Option<i32> {
        self.ended()
            .then(|| self.black.count_ones() as i32 - self.white.count_ones() as i32)
    }
    fn evaluate(&mut self) -> i32 {
        self.black.count_ones() as i32 - self.white.count_ones() as i32
    }
    fn hash(&mut self) -> Option<u64> {
        Some(self.black as u64 | (self.white as u64) << 16 | (self.black_to_move as u64) << 32)
    }
    fn max_to_move(&mut self) -> Option<bool> {
        Some(self.black_to_move)
    }
    fn bounds(&mut self) -> Option<(i32, i32)> {
        Some((-16, 16))
    }
}

#[test]
fn othello_4x4_matches_plain_minimax() {
    let mut o = Othello::new();
    let r = solve(&mut o);
    let key = |g: &Othello| (g.black, g.white, g.black_to_move);
    let expected = reference(&mut Othello::new(), &key, &mut HashMap::new());
    assert_eq!((r.value, r.proven), (expected, true));
    assert_eq!(expected, -8, "White wins 11-3, the published result");
    assert_eq!(o, Othello::new(), "the game is left as it was");
    assert!(r.pv.len() >= 10, "the line plays to the end");
}

#[test]
fn the_c_versions_agree_with_their_references() {
    for (source, name) in [
        ("tests/c/kalah.c", "kalah"),
        ("tests/c/othello4.c", "othello4"),
    ] {
        let exe = scratch("bin").join(name);
        compile(
            &[source],
            &exe,
            false,
            &["-std=c99", "-Wall", "-Wextra", "-Werror", "-O2"],
            true,
        );
        let out = run(&exe, &[], "");
        let text = stdout(&out);
        println!("{text}");
        assert!(out.status.success(), "{text}{}", stderr(&out));
        assert!(text.contains("proven 1, restored 1"), "{text}");
    }
}
