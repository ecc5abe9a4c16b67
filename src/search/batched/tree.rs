//! One game's tree for batched MCTS: nodes in an arena, a node's children side by side
//! (a position is expanded at once, with the network's priors for all its moves), values
//! in the view of the side to move at each node, in [-1, 1].

use crate::search::game::Move;

/// No node: the root's parent, a node's children before it is expanded.
pub(crate) const NONE: u32 = u32::MAX;

/// Where a node stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum State {
    /// Not yet reached: its side to move is a guess until the move is first played.
    Fresh,
    /// In the batch being gathered: a second path to it waits for the evaluator.
    Waiting,
    /// Evaluated, with its children made.
    Expanded,
    /// A final position.
    Final,
}

/// One position.
#[derive(Clone, Debug)]
pub(crate) struct Node {
    /// The move from the parent.
    pub mv: Move,
    pub parent: u32,
    /// The first child; the others follow it (`children` in all).
    pub first_child: u32,
    pub children: u32,
    /// Completed visits, and visits in flight (each a virtual loss until backed up).
    pub visits: u32,
    pub pending: u32,
    /// Summed values, in this node's side to move's view.
    pub value_sum: f64,
    /// The evaluator's value of this position, its side to move's view (Gumbel's mixed
    /// value of unvisited children needs it).
    pub net_value: f32,
    /// The move's probability under the evaluator's policy at the parent.
    pub prior: f32,
    /// The action index of the move (its place in the evaluator's logits).
    pub action: u32,
    /// A proven value in this node's side to move's view: 1 a win, 0 a draw, -1 a loss.
    pub proof: Option<i8>,
    /// What its side to move is proven to get at least (the best proven child; -1 when
    /// none): score-bounded MCTS's pessimistic bound (Cazenave and Saffidine 2011).
    pub lo: i8,
    pub state: State,
    /// The side to move here: at a chance node, the side that moves after the draw.
    pub max_to_move: bool,
    /// Whether the position is a chance node, whose children are its outcomes (their
    /// priors the probabilities), drawn rather than chosen, and which proves nothing.
    pub chance: bool,
}

impl Node {
    pub fn fresh(mv: Move, parent: u32, prior: f32, action: u32, max_to_move: bool) -> Node {
        Node {
            mv,
            parent,
            first_child: NONE,
            children: 0,
            visits: 0,
            pending: 0,
            value_sum: 0.0,
            net_value: 0.0,
            prior,
            action,
            proof: None,
            lo: -1,
            state: State::Fresh,
            max_to_move,
            chance: false,
        }
    }

    /// The node's children's ids.
    pub fn kids(&self) -> std::ops::Range<u32> {
        if self.first_child == NONE {
            0..0
        } else {
            self.first_child..self.first_child + self.children
        }
    }

    /// Its mean value in its own side to move's view (0 unvisited).
    pub fn mean(&self) -> f64 {
        if self.visits == 0 {
            0.0
        } else {
            self.value_sum / f64::from(self.visits)
        }
    }

    /// Its value for the search, its own side to move's view: the proof where proven,
    /// else the mean held to at least the pessimistic bound.
    pub fn value(&self) -> f64 {
        match self.proof {
            Some(p) => f64::from(p),
            None => self.mean().max(f64::from(self.lo)),
        }
    }

    /// Whether it has a value to read: visited, or proven.
    pub fn known(&self) -> bool {
        self.visits > 0 || self.proof.is_some()
    }
}

/// A value in the view of the side to move at a node with `from`, seen by the side to
/// move at one with `to`.
pub(crate) fn seen(value: f64, from: bool, to: bool) -> f64 {
    if from == to { value } else { -value }
}

/// A game's tree, the root first, and what identifies its root.
#[derive(Default, Clone)]
pub(crate) struct Tree {
    pub nodes: Vec<Node>,
    /// The game's hash of the root position (`None`: the game has none).
    pub root_hash: Option<u64>,
    /// Whether `advance` has moved the root since the last search (a game without a
    /// hash keeps its tree only then).
    pub advanced: bool,
}

impl Tree {
    /// A tree of one fresh root; false if memory for it cannot be had.
    pub fn reset(&mut self, max_to_move: bool, hash: Option<u64>) -> bool {
        self.nodes.clear();
        self.root_hash = hash;
        self.advanced = false;
        if self.nodes.try_reserve(1).is_err() {
            return false;
        }
        self.nodes.push(Node::fresh(0, NONE, 1.0, 0, max_to_move));
        true
    }

    /// Keeps the subtree of the root's child for `mv` as the tree, renumbered with each
    /// node's children side by side; a move the tree does not hold, or no memory for the
    /// copy, empties it.
    pub fn advance(&mut self, mv: Move) {
        let child = self
            .nodes
            .first()
            .and_then(|root| root.kids().find(|&c| self.nodes[c as usize].mv == mv));
        let kept = child.and_then(|c| self.subtree(c));
        match kept {
            Some(nodes) => {
                self.nodes = nodes;
                self.advanced = true;
                self.root_hash = None;
            }
            None => self.nodes.clear(),
        }
    }

    /// The subtree of `top`, breadth first (so that children stay side by side), its
    /// in-flight marks cleared; `None` without memory for it.
    fn subtree(&self, top: u32) -> Option<Vec<Node>> {
        let mut out: Vec<Node> = Vec::new();
        out.try_reserve_exact(self.nodes.len()).ok()?;
        let mut root = self.nodes[top as usize].clone();
        root.parent = NONE;
        out.push(root);
        let mut next = 0;
        while next < out.len() {
            let old_kids = out[next].kids();
            let first = out.len() as u32;
            for c in old_kids.clone() {
                let mut kid = self.nodes[c as usize].clone();
                kid.parent = next as u32;
                out.push(kid);
            }
            let node = &mut out[next];
            node.pending = 0;
            if node.state == State::Waiting {
                node.state = State::Fresh;
            }
            if !old_kids.is_empty() {
                node.first_child = first;
            }
            next += 1;
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_subtree_keeps_its_shape_and_children_side_by_side() {
        let mut t = Tree::default();
        assert!(t.reset(true, None));
        // Root with moves 10, 11; 11 with moves 20, 21, 22; 21 with move 30.
        let add = |t: &mut Tree, parent: u32, moves: &[Move]| {
            let first = t.nodes.len() as u32;
            for (i, &m) in moves.iter().enumerate() {
                let max = !t.nodes[parent as usize].max_to_move;
                t.nodes.push(Node::fresh(m, parent, 0.5, i as u32, max));
            }
            let p = &mut t.nodes[parent as usize];
            (p.first_child, p.children, p.state) = (first, moves.len() as u32, State::Expanded);
        };
        add(&mut t, 0, &[10, 11]);
        add(&mut t, 2, &[20, 21, 22]);
        add(&mut t, 4, &[30]);
        t.nodes[4].visits = 7;
        t.advance(11);
        let moves: Vec<Move> = t.nodes.iter().map(|n| n.mv).collect();
        assert_eq!(moves, [11, 20, 21, 22, 30]);
        assert_eq!(t.nodes[0].parent, NONE);
        assert_eq!(t.nodes[0].kids(), 1..4);
        assert_eq!(t.nodes[2].kids(), 4..5);
        assert_eq!(t.nodes[2].visits, 7);
        assert_eq!(t.nodes[4].parent, 2);
        assert!(t.advanced);
        t.advance(99);
        assert!(t.nodes.is_empty());
    }
}
