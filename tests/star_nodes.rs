//! Star1 and Star2 visit no more nodes than plain expectimax without a table (issue 20)
//! on the dice game a new user tried: two players, a d6 each turn, add the roll to your
//! own total (above 10 busts to 0) or take it from the opponent's (not below 0); the value
//! is the first player's total minus the second's. Star2 once visited 1.33x expectimax's
//! nodes here: its probes' moves were searched again; a probed move's value is now reused.
//! With a table the values are compared and the node ratios printed, not held to 1.0:
//! expectimax stores exact values, which every transposition reuses, while the Stars
//! store bounds, which a later window may not (1.04-1.10x here; docs/performance.md).

use minimax::search::{Game, GameError, Method, Move, Options, search};

#[derive(Clone)]
struct DiceDuel {
    turns: u32,
    /// Turns played, whose parity says who moves.
    turn: u32,
    totals: [i32; 2],
    /// The roll waiting to be used; 0 before the roll.
    roll: i32,
    history: Vec<(i32, [i32; 2])>,
}

impl DiceDuel {
    fn new(turns: u32) -> Self {
        DiceDuel {
            turns,
            turn: 0,
            totals: [0, 0],
            roll: 0,
            history: Vec::new(),
        }
    }
}

impl Game for DiceDuel {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        out.extend([0, 1]); // 0: add to own total, 1: take from the opponent's
        Ok(())
    }
    fn play(&mut self, mv: Move) {
        self.history.push((self.roll, self.totals));
        if self.roll == 0 {
            self.roll = mv as i32;
            return;
        }
        let me = (self.turn % 2) as usize;
        if mv == 0 {
            self.totals[me] += self.roll;
            if self.totals[me] > 10 {
                self.totals[me] = 0;
            }
        } else {
            self.totals[1 - me] = (self.totals[1 - me] - self.roll).max(0);
        }
        self.roll = 0;
        self.turn += 1;
    }
    fn undo(&mut self, _: Move) {
        let (roll, totals) = self.history.pop().unwrap();
        if self.roll == 0 && roll != 0 {
            self.turn -= 1;
        }
        (self.roll, self.totals) = (roll, totals);
    }
    fn outcome(&mut self) -> Option<i32> {
        (self.turn == self.turns).then(|| self.totals[0] - self.totals[1])
    }
    fn evaluate(&mut self) -> i32 {
        self.totals[0] - self.totals[1]
    }
    fn hash(&mut self) -> Option<u64> {
        let t = &self.totals;
        Some(((self.turn as u64 * 11 + t[0] as u64) * 11 + t[1] as u64) * 7 + self.roll as u64)
    }
    fn max_to_move(&mut self) -> Option<bool> {
        Some(self.turn % 2 == 0)
    }
    fn bounds(&mut self) -> Option<(i32, i32)> {
        Some((-10, 10))
    }
    fn is_chance(&mut self) -> bool {
        self.roll == 0 && self.turn < self.turns
    }
    fn outcomes(&mut self, out: &mut Vec<(Move, f64)>) -> Result<(), GameError> {
        out.extend((1..=6).map(|r| (r, 1.0)));
        Ok(())
    }
}

/// The expected value and the nodes of a search.
fn run(turns: u32, method: Method, table: bool, depth: u32) -> (f64, u64) {
    let mut g = DiceDuel::new(turns);
    let mut o = Options {
        method,
        max_depth: depth,
        iterative_deepening: false,
        table_bytes: if table { 1 << 22 } else { 0 },
        ..Options::default()
    };
    let r = search(&mut g, &mut o).unwrap();
    assert_eq!((g.turn, g.roll), (0, 0), "the game is back at its start");
    (r.expected.unwrap(), r.stats.nodes)
}

#[test]
fn star_visits_no_more_nodes_than_expectimax_without_a_table() {
    for (turns, depth) in [(4, u32::MAX), (6, u32::MAX), (8, 9)] {
        for table in [false, true] {
            let (value, nodes) = run(turns, Method::Expectimax, table, depth);
            for method in [Method::Star1, Method::Star2] {
                let (v, n) = run(turns, method, table, depth);
                println!(
                    "{turns} turns, depth {depth}, table {table}: {method:?} {n} nodes, \
                     expectimax {nodes} ({:.2}x)",
                    n as f64 / nodes as f64
                );
                assert!(
                    (v - value).abs() <= 1e-9 * value.abs().max(1.0),
                    "{v} vs {value}"
                );
                if !table {
                    assert!(n <= nodes, "{method:?}: {n} nodes, expectimax {nodes}");
                }
            }
        }
    }
}
