//! The n-player tree: nodes in one vector, each node's children side by side, and for
//! each node its players' reward sums and, once proven, their exact rewards.

use crate::search::game::Move;

/// No node (a root's parent, an unexpanded node's children).
pub(super) const NONE: u32 = u32::MAX;
/// The mover of a chance node.
pub(super) const CHANCE: u8 = u8::MAX;

/// One position of the tree.
#[derive(Clone, Copy, Debug)]
pub(super) struct Node {
    /// The move (or chance outcome) from the parent.
    pub mv: Move,
    /// An outcome's probability (1 for a move).
    pub prob: f64,
    pub parent: u32,
    /// The first of `children` nodes side by side (`NONE` until expanded).
    pub first_child: u32,
    pub children: u32,
    pub visits: u32,
    /// The player to move, [`CHANCE`], or (until expanded) unknown.
    pub mover: u8,
    pub expanded: bool,
    /// Whether `proof` holds the exact reward of each player.
    pub proven: bool,
}

/// The tree, with two slices of `players` rewards a node: the sums, then the proof.
#[derive(Default)]
pub(super) struct Tree {
    pub nodes: Vec<Node>,
    values: Vec<f64>,
    pub players: usize,
}

impl Tree {
    pub fn node(&self, k: u32) -> &Node {
        &self.nodes[k as usize]
    }

    pub fn node_mut(&mut self, k: u32) -> &mut Node {
        &mut self.nodes[k as usize]
    }

    pub fn sums(&self, k: u32) -> &[f64] {
        let at = k as usize * 2 * self.players;
        &self.values[at..at + self.players]
    }

    pub fn sums_mut(&mut self, k: u32) -> &mut [f64] {
        let at = k as usize * 2 * self.players;
        &mut self.values[at..at + self.players]
    }

    pub fn proof(&self, k: u32) -> &[f64] {
        let at = (k as usize * 2 + 1) * self.players;
        &self.values[at..at + self.players]
    }

    pub fn proof_mut(&mut self, k: u32) -> &mut [f64] {
        let at = (k as usize * 2 + 1) * self.players;
        &mut self.values[at..at + self.players]
    }

    /// Player `p`'s mean reward at `k` (its proven reward once proven; 0 unvisited).
    pub fn mean(&self, k: u32, p: usize) -> f64 {
        let n = self.node(k);
        if n.proven {
            self.proof(k)[p]
        } else if n.visits == 0 {
            0.0
        } else {
            self.sums(k)[p] / n.visits as f64
        }
    }

    pub fn children(&self, k: u32) -> std::ops::Range<u32> {
        let n = self.node(k);
        match n.first_child {
            NONE => 0..0,
            f => f..f + n.children,
        }
    }

    pub fn root(&self) -> Option<&Node> {
        self.nodes.first()
    }

    /// A tree of one unexpanded root whose mover is `mover`; false without memory.
    pub fn reset(&mut self, players: usize, mover: u8) -> bool {
        self.nodes.clear();
        self.values.clear();
        self.players = players;
        if self.nodes.try_reserve(1).is_err() || self.values.try_reserve(2 * players).is_err() {
            return false;
        }
        self.push(0, 1.0, NONE, mover);
        true
    }

    /// Appends a node (room reserved).
    fn push(&mut self, mv: Move, prob: f64, parent: u32, mover: u8) {
        self.nodes.push(Node {
            mv,
            prob,
            parent,
            first_child: NONE,
            children: 0,
            visits: 0,
            mover,
            expanded: false,
            proven: false,
        });
        self.values
            .extend(std::iter::repeat_n(0.0, 2 * self.players));
    }

    /// Gives `k` the children `moves` (each with its probability), unless the tree
    /// would then hold more than `max_nodes` or the memory cannot be had: false then.
    pub fn add_children(&mut self, k: u32, moves: &[(Move, f64)], max_nodes: usize) -> bool {
        let len = self.nodes.len();
        if len + moves.len() > max_nodes.min(NONE as usize) {
            return false;
        }
        if self.nodes.try_reserve(moves.len()).is_err()
            || self
                .values
                .try_reserve(moves.len() * 2 * self.players)
                .is_err()
        {
            return false;
        }
        for &(mv, prob) in moves {
            self.push(mv, prob, k, 0);
        }
        let n = self.node_mut(k);
        n.first_child = len as u32;
        n.children = moves.len() as u32;
        true
    }

    /// The child of `k` reached by `mv`.
    pub fn child(&self, k: u32, mv: Move) -> Option<u32> {
        self.children(k).find(|&c| self.node(c).mv == mv)
    }

    /// Makes the subtree of `k` the tree, its nodes copied breadth first so that
    /// siblings stay side by side; false (the tree as it was) without memory.
    pub fn keep_subtree(&mut self, k: u32) -> bool {
        let (mut nodes, mut values) = (Vec::new(), Vec::new());
        let stride = 2 * self.players;
        // The subtree's size, first, so that one reservation holds it.
        let mut count = 1usize;
        let mut at = k;
        while let Some(next) = self.after(k, at) {
            (count, at) = (count + 1, next);
        }
        if nodes.try_reserve_exact(count).is_err()
            || values.try_reserve_exact(count * stride).is_err()
        {
            return false;
        }
        // Breadth first: the node at `nodes[i]` came from `from[i]`.
        let mut from: Vec<u32> = Vec::new();
        if from.try_reserve_exact(count).is_err() {
            return false;
        }
        from.push(k);
        let mut root = *self.node(k);
        root.parent = NONE;
        root.mv = 0;
        root.prob = 1.0;
        nodes.push(root);
        let mut i = 0;
        while i < from.len() {
            let old = from[i];
            let at = old as usize * stride;
            values.extend_from_slice(&self.values[at..at + stride]);
            let kids = self.children(old);
            if !kids.is_empty() {
                nodes[i].first_child = nodes.len() as u32;
                for c in kids {
                    let mut n = *self.node(c);
                    n.parent = i as u32;
                    nodes.push(n);
                    from.push(c);
                }
            }
            i += 1;
        }
        self.nodes = nodes;
        self.values = values;
        true
    }

    /// The node after `at` in a walk of `k`'s subtree, parents before children (no memory
    /// taken: siblings are side by side and every node knows its parent).
    fn after(&self, k: u32, mut at: u32) -> Option<u32> {
        if let Some(c) = self.children(at).next() {
            return Some(c);
        }
        while at != k {
            let parent = self.node(at).parent;
            if self.children(parent).contains(&(at + 1)) {
                return Some(at + 1);
            }
            at = parent;
        }
        None
    }

    pub fn clear(&mut self) {
        self.nodes.clear();
        self.values.clear();
    }
}
