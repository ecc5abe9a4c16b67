//! The search tree: nodes in one arena, linked parent to first child and child to next
//! sibling, so that a node's children can grow one at a time. A chance position is a node
//! of its own whose children are its outcomes, each holding its probability (closed loop:
//! every node stands for one position). Values are MAX's rewards in [0, 1].

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
    /// Whether every legal move (at a chance node, every outcome of positive weight) has
    /// a child.
    pub expanded: bool,
    /// Whether the position is a chance node: its children are outcomes, drawn by weight.
    pub chance: bool,
    /// Open loop only: whether the path from the root to here passed a chance step, so
    /// that the position varies between visits: it proves nothing, lists its moves at
    /// every visit, and its side to move is the game's at each visit.
    pub open: bool,
    /// Children, for the bounds of a node not yet expanded.
    pub children: u32,
    /// The game's hash of the position (0 without one): a kept tree's root is checked
    /// against the position searched.
    pub hash: u64,
    /// The move's prior probability from the game's `priors` ([`NO_PRIOR`]: none, UCT);
    /// for an outcome of a chance node, its probability.
    pub prior: f32,
}

/// What kind of position a node is: a chance node, (open loop) one below a chance step,
/// whose position varies, or a final one.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Kind {
    pub chance: bool,
    pub open: bool,
    /// A final position's reward for MAX: the node is made proven and expanded, so that
    /// no thread that finds it in a shared tree takes it for a position with moves.
    pub final_reward: Option<f64>,
}

impl Kind {
    /// A new node's bounds on MAX's reward: a final position's reward, or nothing proven.
    /// (`+ 0.0` turns a -0.0, whose bits a shared tree's `fetch_max` takes as large, into
    /// 0.0.)
    pub fn bounds(&self) -> (f64, f64) {
        self.final_reward.map_or((0.0, 1.0), |r| (r + 0.0, r + 0.0))
    }
}

/// A node's prior when the game gave none: it is chosen by UCT.
pub(crate) const NO_PRIOR: f32 = -1.0;

impl Node {
    /// A node not yet visited, with nothing proven unless it is final.
    fn fresh(mv: Move, parent: u32, max_to_move: bool, kind: Kind, hash: u64, prior: f32) -> Node {
        let (lo, hi) = kind.bounds();
        Node {
            mv,
            parent,
            first_child: NONE,
            last_child: NONE,
            next_sibling: NONE,
            visits: 0,
            sum: 0.0,
            lo,
            hi,
            max_to_move,
            expanded: kind.final_reward.is_some(),
            chance: kind.chance,
            open: kind.open,
            children: 0,
            hash,
            prior,
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

    /// A fresh tree whose root has MAX to move if `max_to_move`; false (the tree empty)
    /// if memory for its root cannot be had.
    pub fn reset(&mut self, max_to_move: bool, hash: u64) -> bool {
        self.nodes.clear();
        if self.nodes.try_reserve(1).is_err() {
            return false;
        }
        self.nodes.push(Node::fresh(
            0,
            NONE,
            max_to_move,
            Kind::default(),
            hash,
            NO_PRIOR,
        ));
        true
    }

    /// Adds a child of `parent` for `mv` (at the end of its list, so that children keep
    /// the order of the moves), if memory allows: `None` when the allocation fails.
    pub fn push_child(
        &mut self,
        parent: u32,
        mv: Move,
        max_to_move: bool,
        kind: Kind,
        hash: u64,
        prior: f32,
    ) -> Option<u32> {
        if self.nodes.len() >= NONE as usize - 1 || self.nodes.try_reserve(1).is_err() {
            return None;
        }
        let id = self.nodes.len() as u32;
        self.nodes
            .push(Node::fresh(mv, parent, max_to_move, kind, hash, prior));
        link(&mut self.nodes, parent, id);
        Some(id)
    }

    /// Appends `node` (its links to children and siblings empty) as the last child of
    /// its parent. The caller has reserved its place.
    pub fn adopt(&mut self, node: Node) {
        let (id, parent) = (self.nodes.len() as u32, node.parent);
        self.nodes.push(node);
        link(&mut self.nodes, parent, id);
    }

    /// Keeps only the subtree of `new_root` (renumbered, its order kept), which becomes
    /// the root: the tree a game-playing program keeps after a move. False (the tree as
    /// it was) if memory for the copy cannot be had.
    pub fn keep_subtree(&mut self, new_root: u32) -> bool {
        let mut kept: Vec<Node> = Vec::new();
        let mut stack = Vec::new();
        let mut children = Vec::new();
        let n = self.nodes.len();
        if kept.try_reserve_exact(n).is_err() || stack.try_reserve_exact(n).is_err() {
            return false;
        }
        stack.push((new_root, NONE));
        // Depth-first, children in order: each node's new index is its position in `kept`.
        while let Some((old, new_parent)) = stack.pop() {
            let id = kept.len() as u32;
            let mut node = self.nodes[old as usize].clone();
            node.parent = new_parent;
            node.first_child = NONE;
            node.last_child = NONE;
            node.next_sibling = NONE;
            node.children = 0;
            kept.push(node);
            if new_parent != NONE {
                // Siblings arrive in order (pushed reversed below).
                link(&mut kept, new_parent, id);
            }
            children.clear();
            children.extend(self.children(old));
            for &c in children.iter().rev() {
                stack.push((c, id));
            }
        }
        kept[0].parent = NONE;
        kept[0].mv = 0;
        self.nodes = kept;
        true
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

/// What one iteration needs of a tree, node by node: the plain [`Tree`] of one thread, or
/// the shared tree of several (`shared.rs`), whose fields are atomics.
pub(crate) trait Nodes {
    /// Whether other threads search the same tree: a path then carries a virtual loss, a
    /// node takes a lock to add a child, and bounds are raised along the whole path.
    const SHARED: bool;
    /// Nodes in the tree (with threads, the places taken).
    fn len(&self) -> usize;
    fn mv(&self, id: u32) -> Move;
    fn max_to_move(&self, id: u32) -> bool;
    /// Whether `id` is a chance node.
    fn is_chance(&self, id: u32) -> bool;
    /// Whether `id`'s position varies between visits (open loop).
    fn is_open(&self, id: u32) -> bool;
    fn is_expanded(&self, id: u32) -> bool;
    fn set_expanded(&mut self, id: u32);
    /// The proven bounds on MAX's reward.
    fn bounds(&self, id: u32) -> (f64, f64);
    /// Narrows the bounds to `(lo, hi)`: whether they changed.
    fn narrow(&mut self, id: u32, lo: f64, hi: f64) -> bool;
    /// Visits and MAX's summed reward.
    fn stats(&self, id: u32) -> (u32, f64);
    fn first_child(&self, id: u32) -> u32;
    fn next_sibling(&self, id: u32) -> u32;
    /// Children, for the bounds of a node not yet expanded.
    fn child_count(&self, id: u32) -> u32;
    /// The move's prior ([`NO_PRIOR`]: none).
    fn prior(&self, id: u32) -> f32;
    /// Adds a child of `parent` for `mv` at the end of its list (with threads, under
    /// `parent`'s lock): `None` when the tree cannot grow.
    fn add_child(
        &mut self,
        parent: u32,
        mv: Move,
        max_to_move: bool,
        kind: Kind,
        hash: u64,
        prior: f32,
    ) -> Option<u32>;
    /// Takes the right to add children to `id`: false if another thread holds it.
    fn lock(&mut self, id: u32) -> bool;
    fn unlock(&mut self, id: u32);
    /// Whether another thread holds `id`'s lock (adding a child to it) now.
    fn is_locked(&self, id: u32) -> bool;
    /// Counts a visit as a path passes `id`: with threads, at once and as a `loss` for
    /// the side that chose it (virtual loss, Chaslot et al. 2008), so that the other
    /// threads look elsewhere meanwhile; or, for a node of many visits, later with the
    /// reward (`true`: see `shared.rs`).
    fn enter(&mut self, id: u32, loss: f64) -> bool;
    /// Adds the iteration's reward to `id` (taking back `enter`'s loss, or with the visit
    /// `enter` put off if `later`).
    fn leave(&mut self, id: u32, reward: f64, loss: f64, later: bool);
    /// Writes the counts put off so far.
    fn flush(&mut self) {}

    /// The children of `node`, in order.
    fn children(&self, node: u32) -> Children<'_, Self>
    where
        Self: Sized,
    {
        Children {
            tree: self,
            next: self.first_child(node),
        }
    }

    /// Whether `node` is expanded, and its children, for its bounds: the flag is read
    /// first, so that where it says every move has a child, the children read after it
    /// are all there. (Read the other way round, a child another thread linked between
    /// the two reads was missed, and bounds over the others taken as exact: a false
    /// proof that Miri found.)
    fn expanded_children(&self, node: u32) -> (bool, Children<'_, Self>)
    where
        Self: Sized,
    {
        let expanded = self.is_expanded(node);
        (expanded, self.children(node))
    }

    /// The child of `node` for `mv`.
    fn child(&self, node: u32, mv: Move) -> Option<u32>
    where
        Self: Sized,
    {
        self.children(node).find(|&c| self.mv(c) == mv)
    }
}

impl Nodes for Tree {
    const SHARED: bool = false;
    fn len(&self) -> usize {
        self.nodes.len()
    }
    fn mv(&self, id: u32) -> Move {
        self.nodes[id as usize].mv
    }
    fn max_to_move(&self, id: u32) -> bool {
        self.nodes[id as usize].max_to_move
    }
    fn is_chance(&self, id: u32) -> bool {
        self.nodes[id as usize].chance
    }
    fn is_open(&self, id: u32) -> bool {
        self.nodes[id as usize].open
    }
    fn is_expanded(&self, id: u32) -> bool {
        self.nodes[id as usize].expanded
    }
    fn set_expanded(&mut self, id: u32) {
        self.nodes[id as usize].expanded = true;
    }
    fn bounds(&self, id: u32) -> (f64, f64) {
        let n = &self.nodes[id as usize];
        (n.lo, n.hi)
    }
    fn narrow(&mut self, id: u32, lo: f64, hi: f64) -> bool {
        let n = &mut self.nodes[id as usize];
        let changed = (n.lo, n.hi) != (lo, hi);
        (n.lo, n.hi) = (lo, hi);
        changed
    }
    fn stats(&self, id: u32) -> (u32, f64) {
        let n = &self.nodes[id as usize];
        (n.visits, n.sum)
    }
    fn first_child(&self, id: u32) -> u32 {
        self.nodes[id as usize].first_child
    }
    fn next_sibling(&self, id: u32) -> u32 {
        self.nodes[id as usize].next_sibling
    }
    fn child_count(&self, id: u32) -> u32 {
        self.nodes[id as usize].children
    }
    fn prior(&self, id: u32) -> f32 {
        self.nodes[id as usize].prior
    }
    fn add_child(
        &mut self,
        parent: u32,
        mv: Move,
        max_to_move: bool,
        kind: Kind,
        hash: u64,
        prior: f32,
    ) -> Option<u32> {
        self.push_child(parent, mv, max_to_move, kind, hash, prior)
    }
    fn lock(&mut self, _: u32) -> bool {
        true
    }
    fn unlock(&mut self, _: u32) {}
    fn is_locked(&self, _: u32) -> bool {
        false
    }
    fn enter(&mut self, _: u32, _: f64) -> bool {
        false
    }
    fn leave(&mut self, id: u32, reward: f64, _: f64, _: bool) {
        let n = &mut self.nodes[id as usize];
        n.visits = n.visits.saturating_add(1);
        n.sum += reward;
    }
}

/// An iterator over a node's children.
pub(crate) struct Children<'a, T> {
    tree: &'a T,
    next: u32,
}

impl<T: Nodes> Iterator for Children<'_, T> {
    type Item = u32;
    fn next(&mut self) -> Option<u32> {
        (self.next != NONE).then(|| {
            let id = self.next;
            self.next = self.tree.next_sibling(id);
            id
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_takes_the_72_bytes_the_docs_say() {
        assert_eq!(std::mem::size_of::<Node>(), 72);
    }

    #[test]
    fn children_keep_their_order_and_a_kept_subtree_its_shape() {
        let mut t = Tree::default();
        t.reset(true, 0);
        let a = t
            .push_child(0, 10, false, Kind::default(), 0, NO_PRIOR)
            .unwrap();
        let b = t
            .push_child(0, 20, false, Kind::default(), 0, NO_PRIOR)
            .unwrap();
        let a1 = t
            .push_child(a, 11, true, Kind::default(), 0, NO_PRIOR)
            .unwrap();
        t.push_child(a, 12, true, Kind::default(), 0, NO_PRIOR)
            .unwrap();
        t.push_child(a1, 111, false, Kind::default(), 0, NO_PRIOR)
            .unwrap();
        t.push_child(b, 21, true, Kind::default(), 0, NO_PRIOR)
            .unwrap();
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
