//! The search tree: nodes in one arena, linked parent to first child and child to next
//! sibling, so that a node's children can grow one at a time (and, below a chance step,
//! differ from visit to visit). Values are MAX's rewards in [0, 1].

use crate::search::game::Move;

/// No node: the root's parent, the end of a sibling list.
pub(crate) const NONE: u32 = u32::MAX;

/// One position of the tree: the move that led here from its parent, who is to move,
/// the visits and MAX's summed reward, and the proven bounds on MAX's reward
/// (score-bounded MCTS: `lo == hi` is a proof).
#[derive(Clone, Debug)]
pub(crate) struct Node {
    pub mv: Move,
    pub parent: u32,
    pub first_child: u32,
    /// The last child, so that a child is appended in constant time.
    pub last_child: u32,
    pub next_sibling: u32,
    pub visits: u32,
    pub sum: f64,
    pub lo: f64,
    pub hi: f64,
    /// Whether MAX is to move here.
    pub max_to_move: bool,
    /// Whether every legal move has a child (a node below a chance step never is: its
    /// moves may differ at the next visit).
    pub expanded: bool,
    /// Whether the path from the root to here passed a chance step: its position varies
    /// between visits, so it proves nothing and lists its moves at every visit.
    pub open: bool,
    /// Children, for the bounds of a node not yet expanded.
    pub children: u32,
    /// The game's hash of the position (0 without one): a kept tree's root is checked
    /// against the position searched.
    pub hash: u64,
}

impl Node {
    /// A node not yet visited, with nothing proven.
    fn fresh(mv: Move, parent: u32, max_to_move: bool, open: bool, hash: u64) -> Node {
        Node {
            mv,
            parent,
            first_child: NONE,
            last_child: NONE,
            next_sibling: NONE,
            visits: 0,
            sum: 0.0,
            lo: 0.0,
            hi: 1.0,
            max_to_move,
            expanded: false,
            open,
            children: 0,
            hash,
        }
    }
}

/// The nodes, the root first.
#[derive(Default)]
pub(crate) struct Tree {
    pub nodes: Vec<Node>,
}

impl Tree {
    pub fn root(&self) -> Option<&Node> {
        self.nodes.first()
    }

    /// A fresh tree whose root has MAX to move if `max_to_move`.
    pub fn reset(&mut self, max_to_move: bool, open: bool, hash: u64) {
        self.nodes.clear();
        self.nodes
            .push(Node::fresh(0, NONE, max_to_move, open, hash));
    }

    /// Adds a child of `parent` for `mv` (at the end of its list, so that children keep
    /// the order of the moves), if memory allows: `None` when the allocation fails.
    pub fn add_child(
        &mut self,
        parent: u32,
        mv: Move,
        max_to_move: bool,
        open: bool,
        hash: u64,
    ) -> Option<u32> {
        if self.nodes.len() >= NONE as usize - 1 || self.nodes.try_reserve(1).is_err() {
            return None;
        }
        let id = self.nodes.len() as u32;
        self.nodes
            .push(Node::fresh(mv, parent, max_to_move, open, hash));
        link(&mut self.nodes, parent, id);
        Some(id)
    }

    /// The children of `node`, in order.
    pub fn children(&self, node: u32) -> Children<'_> {
        Children {
            tree: self,
            next: self.nodes[node as usize].first_child,
        }
    }

    /// The child of `node` for `mv`.
    pub fn child(&self, node: u32, mv: Move) -> Option<u32> {
        self.children(node)
            .find(|&c| self.nodes[c as usize].mv == mv)
    }

    /// Keeps only the subtree of `new_root` (renumbered, its order kept), which becomes
    /// the root: the tree a game-playing program keeps after a move.
    pub fn keep_subtree(&mut self, new_root: u32) {
        let mut kept: Vec<Node> = Vec::new();
        let mut stack = vec![(new_root, NONE)];
        // Depth-first, children in order: each node's new index is its position in `kept`.
        let mut order = Vec::new();
        while let Some((old, new_parent)) = stack.pop() {
            let id = kept.len() as u32;
            let mut node = self.nodes[old as usize].clone();
            node.parent = new_parent;
            node.first_child = NONE;
            node.last_child = NONE;
            node.next_sibling = NONE;
            node.children = 0;
            kept.push(node);
            order.push(old);
            if new_parent != NONE {
                // Siblings arrive in order (pushed reversed below).
                link(&mut kept, new_parent, id);
            }
            let children: Vec<u32> = self.children(old).collect();
            for &c in children.iter().rev() {
                stack.push((c, id));
            }
        }
        kept[0].parent = NONE;
        kept[0].mv = 0;
        self.nodes = kept;
    }
}

/// Appends node `id` to `parent`'s children.
fn link(nodes: &mut [Node], parent: u32, id: u32) {
    let p = &mut nodes[parent as usize];
    p.children += 1;
    let last = std::mem::replace(&mut p.last_child, id);
    match last {
        NONE => p.first_child = id,
        last => nodes[last as usize].next_sibling = id,
    }
}

/// An iterator over a node's children.
pub(crate) struct Children<'a> {
    tree: &'a Tree,
    next: u32,
}

impl Iterator for Children<'_> {
    type Item = u32;
    fn next(&mut self) -> Option<u32> {
        (self.next != NONE).then(|| {
            let id = self.next;
            self.next = self.tree.nodes[id as usize].next_sibling;
            id
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn children_keep_their_order_and_a_kept_subtree_its_shape() {
        let mut t = Tree::default();
        t.reset(true, false, 0);
        let a = t.add_child(0, 10, false, false, 0).unwrap();
        let b = t.add_child(0, 20, false, false, 0).unwrap();
        let a1 = t.add_child(a, 11, true, false, 0).unwrap();
        t.add_child(a, 12, true, false, 0).unwrap();
        t.add_child(a1, 111, false, false, 0).unwrap();
        t.add_child(b, 21, true, false, 0).unwrap();
        t.nodes[a1 as usize].visits = 7;
        let moves = |t: &Tree, n| {
            t.children(n)
                .map(|c| t.nodes[c as usize].mv)
                .collect::<Vec<_>>()
        };
        assert_eq!(moves(&t, 0), [10, 20]);
        assert_eq!(t.child(0, 20), Some(b));
        t.keep_subtree(a);
        assert_eq!(t.nodes.len(), 4);
        assert_eq!(moves(&t, 0), [11, 12]);
        let new_a1 = t.child(0, 11).unwrap();
        assert_eq!(t.nodes[new_a1 as usize].visits, 7);
        assert_eq!(moves(&t, new_a1), [111]);
        assert_eq!(t.nodes[0].parent, NONE);
    }
}
