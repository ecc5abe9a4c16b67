//! Trees with chance nodes: their expected values, by the textbook definition (the
//! reference), and their search by the engine's chance methods (expectimax, Star1,
//! Star2), which also tells which nodes the pruning never entered.
//!
//! Sides alternate at every level, chance levels included: a chance node takes the turn of
//! the side it stands for, so MAX, chance, MAX, chance, ... is a tree whose MIN levels are
//! chance levels (the textbook exercise).

use super::general::Tree;
use super::{Stats, TreeError, height_of};
use crate::search::{self, ANY_OUTCOME, Game, GameError, Method, Move, Options};

/// The most levels a tree with chance nodes may have: the engine searches it
/// recursively, and a deeper tree would need more stack than a thread is sure to have.
pub const MAX_CHANCE_HEIGHT: usize = 1000;

/// The answer for a tree with chance nodes.
#[derive(Debug, Clone, PartialEq)]
pub struct ChanceSolution {
    /// The expected value of the root, MAX's view.
    pub value: f64,
    /// The optimal line as child positions from the root, up to the first chance node
    /// (where the next step is drawn, not chosen).
    pub line: Vec<usize>,
    /// What the search did.
    pub stats: Stats,
    /// Whether the search entered each node: the nodes it did not were pruned.
    pub visited: Vec<bool>,
}

/// Every node's expected value (MAX's view) by the definition: a leaf's score, the best
/// child's value for MAX and MIN, the weighted mean of the children's for a chance node
/// (`Σ w·v / Σ w`, summed in the children's order, so that equal weights over equal values
/// give that value exactly). Iterative: any height.
pub fn expected_values(tree: &Tree, max_at_root: bool) -> Vec<f64> {
    let order: Vec<usize> = tree.preorder().collect();
    let is_max = tree.sides(max_at_root);
    let mut value = vec![0.0; tree.node_count()];
    for &node in order.iter().rev() {
        let kids = tree.children(node);
        value[node] = if kids.is_empty() {
            tree.value(node) as f64
        } else if tree.is_chance(node) {
            let total: f64 = kids.iter().map(|&c| tree.weight(c)).sum();
            kids.iter()
                .filter(|&&c| tree.weight(c) > 0.0)
                .map(|&c| tree.weight(c) * value[c])
                .fold(0.0, |sum, v| sum + v)
                / total
        } else {
            let vals = kids.iter().map(|&c| value[c]);
            if is_max[node] {
                vals.fold(f64::NEG_INFINITY, f64::max)
            } else {
                vals.fold(f64::INFINITY, f64::min)
            }
        };
    }
    value
}

/// Searches a tree (with or without chance nodes) by a chance method of the engine.
/// Star1 and Star2 take the lowest and highest leaf as their bounds.
pub fn solve_chance(
    tree: &Tree,
    max_at_root: bool,
    method: Method,
) -> Result<ChanceSolution, GameError> {
    assert!(method.is_chance(), "a chance method");
    if tree.height() > MAX_CHANCE_HEIGHT {
        return Err(GameError::TooDeep);
    }
    let leaves = (0..tree.node_count()).filter(|&n| tree.is_leaf(n));
    let (lo, hi) = leaves.fold((i32::MAX, i32::MIN), |(lo, hi), n| {
        (lo.min(tree.value(n)), hi.max(tree.value(n)))
    });
    let mut walk = Walk {
        tree,
        path: vec![0],
        visited: vec![false; tree.node_count()],
        bounds: (lo, hi),
    };
    walk.visited[0] = true;
    let mut opts = Options {
        method,
        iterative_deepening: false,
        table_bytes: 0,
        max_at_root,
        ..Options::default()
    };
    let r = search::search(&mut walk, &mut opts)?;
    let line =
        r.pv.iter()
            .take_while(|&&m| m != ANY_OUTCOME)
            .map(|&m| m as usize)
            .collect();
    Ok(ChanceSolution {
        value: r.expected.expect("a chance method's value"),
        line,
        stats: Stats {
            nodes: r.stats.nodes,
            leaves: r.stats.leaves,
            cutoffs: r.stats.cutoffs,
        },
        visited: walk.visited,
    })
}

/// The complete tree of a leaf array with every MIN level a chance level of equal weights
/// (MAX, chance, MAX, ... from a MAX root), searched by a chance method.
pub fn leaves_expectimax(
    leaves: &[i32],
    branching: usize,
    max_at_root: bool,
    method: Method,
) -> Result<ChanceSolution, TreeError> {
    let height = height_of(leaves.len(), branching)?;
    let mut tree = Tree::from_complete(leaves, branching)?;
    let equal = vec![1.0; branching];
    // Level order: the nodes of level d are b^d.., and level d is MIN's when d is odd
    // from a MAX root (even from a MIN root).
    let mut first = 0;
    for level in 0..height {
        let width = branching.pow(level);
        if (level % 2 == 1) == max_at_root {
            for node in first..first + width {
                // Equal weights are good ones: the only failure is memory.
                tree.set_chance(node, &equal)
                    .map_err(|_| TreeError::OutOfMemory)?;
            }
        }
        first += width;
    }
    // Any complete tree that fits in memory is well within the height limit.
    Ok(solve_chance(&tree, max_at_root, method).expect("a well-formed tree"))
}

/// A tree as a game for the engine: moves and outcomes are child positions.
struct Walk<'a> {
    tree: &'a Tree,
    path: Vec<usize>,
    visited: Vec<bool>,
    bounds: (i32, i32),
}

impl Walk<'_> {
    fn here(&self) -> usize {
        *self.path.last().expect("the root at least")
    }
}

impl Game for Walk<'_> {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        out.extend(0..self.tree.children(self.here()).len() as Move);
        Ok(())
    }
    fn play(&mut self, mv: Move) {
        let child = self.tree.children(self.here())[mv as usize];
        self.visited[child] = true;
        self.path.push(child);
    }
    fn undo(&mut self, _: Move) {
        self.path.pop();
    }
    fn outcome(&mut self) -> Option<i32> {
        let node = self.here();
        self.tree.is_leaf(node).then(|| self.tree.value(node))
    }
    fn evaluate(&mut self) -> i32 {
        0 // never asked: the search goes to the leaves
    }
    fn bounds(&mut self) -> Option<(i32, i32)> {
        Some(self.bounds)
    }
    fn is_chance(&mut self) -> bool {
        self.tree.is_chance(self.here())
    }
    fn outcomes(&mut self, out: &mut Vec<(Move, f64)>) -> Result<(), GameError> {
        let kids = self.tree.children(self.here());
        out.extend((0..kids.len()).map(|i| (i as Move, self.tree.weight(kids[i]))));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::text::parse;

    #[test]
    fn the_textbook_exercise_by_hand() {
        // MAX at the root, then a fair coin, then MAX: max(3, 5) = 5 and max(6, 9) = 9
        // average 7; max(1, 2) = 2 and max(0, -1) = 0 average 1; the root takes 7.
        let leaves = [3, 5, 6, 9, 1, 2, 0, -1];
        for method in [Method::Expectimax, Method::Star1, Method::Star2] {
            let s = leaves_expectimax(&leaves, 2, true, method).unwrap();
            assert_eq!(s.value, 7.0, "{method:?}");
            assert_eq!(
                s.line,
                [0],
                "MAX takes the left coin; then the coin decides"
            );
        }
        let t = parse("(?(1: (3 5), 1: (6 9)) ?(1: (1 2), 1: (0 -1)))").unwrap();
        assert_eq!(expected_values(&t, true)[0], 7.0);
        // Star1 prunes the right coin's second outcome: 2 + (0 at most... MAX of 0, -1)
        // cannot lift the mean above 7 once the first outcome gave max(1, 2) = 2.
        let s = solve_chance(&t, true, Method::Star1).unwrap();
        assert_eq!(s.value, 7.0);
        assert!(s.visited.iter().any(|v| !v), "something was pruned");
    }

    #[test]
    #[cfg_attr(miri, ignore = "24 s under Miri, for safe code only")]
    fn weights_and_deep_trees() {
        let t = parse("?(1: 10, 3: 2, 0: 99)").unwrap();
        assert_eq!(expected_values(&t, true)[0], 0.25 * 10.0 + 0.75 * 2.0);
        let s = solve_chance(&t, true, Method::Star2).unwrap();
        assert_eq!((s.value, s.line.len()), (4.0, 0));
        let deep = format!(
            "{}1{}",
            "(".repeat(MAX_CHANCE_HEIGHT + 1),
            ")".repeat(MAX_CHANCE_HEIGHT + 1)
        );
        let t = parse(&deep).unwrap();
        assert_eq!(
            solve_chance(&t, true, Method::Expectimax),
            Err(GameError::TooDeep)
        );
    }
}
