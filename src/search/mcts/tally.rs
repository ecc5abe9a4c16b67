//! What a result needs of a tree: the root's proven bounds, and each root move's visits,
//! summed reward and bounds; from one tree, or added up over the separate trees of a
//! root-parallel search (`root_parallel.rs`).

use super::tree::{Nodes, Tree};
use crate::search::game::Move;

/// One root move's numbers.
#[derive(Debug, Clone, Copy)]
pub(super) struct MoveTally {
    pub mv: Move,
    pub visits: u64,
    /// MAX's summed reward.
    pub sum: f64,
    /// The proven bounds on MAX's reward.
    pub lo: f64,
    pub hi: f64,
}

/// The root's numbers.
#[derive(Debug, Clone)]
pub(super) struct Tally {
    pub max_to_move: bool,
    /// Whether the root's position varies between visits (below a chance step).
    pub open: bool,
    /// The proven bounds on MAX's reward at the root.
    pub lo: f64,
    pub hi: f64,
    /// The root's moves, in the order of the first tree that holds each.
    pub moves: Vec<MoveTally>,
    /// Nodes, over all the trees.
    pub nodes: u64,
    /// The deepest node below a root.
    pub depth: u32,
}

impl Tally {
    /// The numbers of `tree`, which has a root.
    pub fn of(tree: &Tree) -> Tally {
        let root = &tree.nodes[0];
        let moves = tree
            .children(0)
            .map(|c| {
                let n = &tree.nodes[c as usize];
                MoveTally {
                    mv: n.mv,
                    visits: n.visits as u64,
                    sum: n.sum,
                    lo: n.lo,
                    hi: n.hi,
                }
            })
            .collect();
        Tally {
            max_to_move: root.max_to_move,
            open: root.open,
            lo: root.lo,
            hi: root.hi,
            moves,
            nodes: tree.nodes.len() as u64,
            depth: depth(tree),
        }
    }

    /// Adds the numbers of another tree of the same root: visits and rewards add up, and
    /// bounds, each proven in its own tree, hold together (the tighter of each).
    pub fn add(&mut self, other: &Tally) {
        debug_assert_eq!(self.max_to_move, other.max_to_move);
        (self.lo, self.hi) = (self.lo.max(other.lo), self.hi.min(other.hi));
        for m in &other.moves {
            match self.moves.iter_mut().find(|s| s.mv == m.mv) {
                Some(s) => {
                    s.visits += m.visits;
                    s.sum += m.sum;
                    (s.lo, s.hi) = (s.lo.max(m.lo), s.hi.min(m.hi));
                }
                None => self.moves.push(*m),
            }
        }
        self.nodes += other.nodes;
        self.depth = self.depth.max(other.depth);
    }
}

/// The deepest node below the root: each node's depth is its parent's plus one, found by
/// walking up to a node whose depth is known (a parent comes before its children but
/// after a search on threads, so the walk is short where it does not).
fn depth(tree: &Tree) -> u32 {
    let nodes = &tree.nodes;
    let mut depth = vec![u32::MAX; nodes.len()];
    if let Some(root) = depth.first_mut() {
        *root = 0;
    }
    let mut up = Vec::new();
    for i in 0..nodes.len() {
        let mut k = i;
        while depth[k] == u32::MAX {
            up.push(k);
            k = nodes[k].parent as usize;
        }
        let mut d = depth[k];
        while let Some(k) = up.pop() {
            d += 1;
            depth[k] = d;
        }
    }
    depth.into_iter().max().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::mcts::tree::NO_PRIOR;

    fn tree(moves: &[(Move, u32, f64, f64, f64)]) -> Tree {
        let mut t = Tree::default();
        t.reset(true, false, 0);
        for &(mv, visits, sum, lo, hi) in moves {
            let c = t.push_child(0, mv, false, false, 0, NO_PRIOR).unwrap();
            let n = &mut t.nodes[c as usize];
            (n.visits, n.sum, n.lo, n.hi) = (visits, sum, lo, hi);
        }
        t
    }

    #[test]
    fn trees_add_up_by_move_and_keep_the_tighter_bounds() {
        let a = tree(&[(1, 10, 4.0, 0.0, 1.0), (2, 5, 5.0, 0.5, 1.0)]);
        let mut b = tree(&[(2, 3, 2.0, 0.0, 0.5), (3, 7, 1.0, 0.0, 1.0)]);
        b.push_child(1, 9, true, false, 0, NO_PRIOR).unwrap(); // depth 2, under move 2
        let mut t = Tally::of(&a);
        t.add(&Tally::of(&b));
        let got: Vec<_> = t
            .moves
            .iter()
            .map(|m| (m.mv, m.visits, m.sum, m.lo, m.hi))
            .collect();
        assert_eq!(
            got,
            [
                (1, 10, 4.0, 0.0, 1.0),
                (2, 8, 7.0, 0.5, 0.5),
                (3, 7, 1.0, 0.0, 1.0)
            ]
        );
        assert_eq!((t.nodes, t.depth), (3 + 4, 2));
    }
}
