//! Trees of any shape: every node has any number of children, leaves carry scores, and
//! any node may carry a label. An inner node may be a chance node, whose children are
//! drawn at random by their weights (see [`crate::tree::chance`]). Built from text
//! ([`crate::tree::text`]), from CSR arrays, or from a complete tree's leaf array.

use std::collections::{BTreeMap, HashSet};
use std::fmt;

use super::solve::GameTree;
use super::{CompleteTree, TreeError};

/// A tree of any shape. Node 0 is the root; the children of node `i` are
/// `children[start[i]..start[i] + len[i]]`, leftmost first; a node with none is a leaf.
/// About five words a node: labels and chance data are kept only where there are some.
#[derive(Debug, Clone)]
pub struct Tree {
    start: Vec<usize>,
    len: Vec<usize>,
    children: Vec<usize>,
    values: Vec<i32>,
    /// The labelled nodes' labels.
    labels: BTreeMap<usize, Box<str>>,
    parent: Vec<usize>,
    /// Whether each inner node is a chance node: empty while none is.
    chance: Vec<bool>,
    /// Each node's weight among its siblings, when its parent is a chance node (else 1):
    /// empty while no node is a chance node.
    weight: Vec<f64>,
}

/// Why CSR arrays do not describe a tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CsrError {
    /// No nodes: a tree has at least its root.
    NoNodes,
    /// `offsets` is not `node_count + 1` entries rising from 0 to `children.len()`.
    BadOffsets,
    /// A child index is not a node.
    ChildOutOfRange,
    /// The root is someone's child, a node has two parents, or a node is not reachable
    /// from the root (a cycle).
    NotATree,
    /// A chance node's weights: one negative, NaN or infinite, or all of them zero.
    BadWeight,
    /// The tree's memory could not be allocated.
    OutOfMemory,
}

impl fmt::Display for CsrError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CsrError::NoNodes => "a tree needs at least one node",
            CsrError::BadOffsets => {
                "offsets must rise from 0 to the child count, one more than the nodes"
            }
            CsrError::ChildOutOfRange => "a child index is not a node",
            CsrError::NotATree => "the arrays do not form one tree rooted at node 0",
            CsrError::BadWeight => {
                "a chance node's weights must be finite, non-negative and not all zero"
            }
            CsrError::OutOfMemory => "the tree's memory could not be allocated",
        })
    }
}

impl std::error::Error for CsrError {}

const NO_PARENT: usize = usize::MAX;

impl Tree {
    /// Builds a tree from CSR arrays: node `i`'s children are
    /// `children[offsets[i]..offsets[i + 1]]`, and `values[i]` is its score if it is a leaf
    /// (ignored otherwise). Node 0 is the root; every other node must be the child of
    /// exactly one node and reachable from the root.
    pub fn from_csr(
        offsets: &[usize],
        children: &[usize],
        values: &[i32],
    ) -> Result<Tree, CsrError> {
        let n = values.len();
        if n == 0 {
            return Err(CsrError::NoNodes);
        }
        if offsets.len() != n + 1 || offsets[0] != 0 || offsets[n] != children.len() {
            return Err(CsrError::BadOffsets);
        }
        if offsets.windows(2).any(|w| w[0] > w[1]) {
            return Err(CsrError::BadOffsets);
        }
        let mut parent = filled(n, NO_PARENT)?;
        for i in 0..n {
            for &c in &children[offsets[i]..offsets[i + 1]] {
                if c >= n {
                    return Err(CsrError::ChildOutOfRange);
                }
                if c == 0 || parent[c] != NO_PARENT {
                    return Err(CsrError::NotATree);
                }
                parent[c] = i;
            }
        }
        let leaf = |i: usize| offsets[i] == offsets[i + 1];
        let tree = Tree {
            start: collected(n, offsets[..n].iter().copied())?,
            len: collected(n, offsets.windows(2).map(|w| w[1] - w[0]))?,
            children: collected(children.len(), children.iter().copied())?,
            values: collected(n, (0..n).map(|i| if leaf(i) { values[i] } else { 0 }))?,
            labels: BTreeMap::new(),
            parent,
            chance: Vec::new(),
            weight: Vec::new(),
        };
        // One parent each and n - 1 edges: a tree exactly when every node is reachable.
        if tree.try_preorder_count()? != n {
            return Err(CsrError::NotATree);
        }
        Ok(tree)
    }

    /// [`Tree::from_csr`] with chance nodes: `chance[i]` says whether node `i` is one (a
    /// leaf stays a leaf whatever it says), and `weights[k]` is the weight of the child
    /// `children[k]` when its parent is a chance node (ignored otherwise). A chance node's
    /// weights must be finite and non-negative, and not all zero.
    pub fn from_csr_chance(
        offsets: &[usize],
        children: &[usize],
        values: &[i32],
        chance: &[bool],
        weights: &[f64],
    ) -> Result<Tree, CsrError> {
        let mut tree = Tree::from_csr(offsets, children, values)?;
        if chance.len() != values.len() || weights.len() != children.len() {
            return Err(CsrError::BadOffsets);
        }
        for node in 0..values.len() {
            if chance[node] && !tree.is_leaf(node) {
                let range = offsets[node]..offsets[node + 1];
                tree.set_chance(node, &weights[range])?;
            }
        }
        Ok(tree)
    }

    /// Makes inner node `node` a chance node whose children have `weights`, in order.
    pub(crate) fn set_chance(&mut self, node: usize, weights: &[f64]) -> Result<(), CsrError> {
        let bad = weights.iter().any(|w| !w.is_finite() || *w < 0.0);
        let total: f64 = weights.iter().sum();
        if bad || !total.is_finite() || total == 0.0 || weights.len() != self.len[node] {
            return Err(CsrError::BadWeight);
        }
        if self.chance.is_empty() {
            let n = self.node_count();
            self.chance = filled(n, false)?;
            self.weight = filled(n, 1.0)?;
        }
        self.chance[node] = true;
        for (i, &w) in weights.iter().enumerate() {
            let c = self.children[self.start[node] + i];
            self.weight[c] = w;
        }
        Ok(())
    }

    /// Whether `node` is a chance node (an inner node whose child is drawn at random).
    pub fn is_chance(&self, node: usize) -> bool {
        self.chance.get(node).copied().unwrap_or(false)
    }

    /// The weight of `node` among its siblings when its parent is a chance node.
    pub fn weight(&self, node: usize) -> f64 {
        self.weight.get(node).copied().unwrap_or(1.0)
    }

    /// Whether any node is a chance node.
    pub fn has_chance(&self) -> bool {
        self.chance.contains(&true)
    }

    /// The general form of a complete tree given by its leaf array, in level order (node
    /// `i`'s children are nodes `i * branching + 1 ..`, at `children[i * branching ..]`).
    /// `TreeError::OutOfMemory` if its memory cannot be had: about five words a node,
    /// nothing more at any time.
    pub fn from_complete(leaves: &[i32], branching: usize) -> Result<Tree, TreeError> {
        let complete = CompleteTree::new(leaves, branching)?;
        let inner: usize = (0..complete.height()).map(|d| branching.pow(d)).sum();
        let n = inner + leaves.len();
        let is_inner = |i: usize| i < inner;
        Ok(Tree {
            start: collected(
                n,
                (0..n).map(|i| if is_inner(i) { i * branching } else { 0 }),
            )?,
            len: collected(n, (0..n).map(|i| if is_inner(i) { branching } else { 0 }))?,
            children: collected(n - 1, 1..n)?,
            values: collected(n, (0..inner).map(|_| 0).chain(leaves.iter().copied()))?,
            labels: BTreeMap::new(),
            parent: collected(
                n,
                (0..n).map(|i| {
                    if i == 0 {
                        NO_PARENT
                    } else {
                        (i - 1) / branching
                    }
                }),
            )?,
            chance: Vec::new(),
            weight: Vec::new(),
        })
    }

    /// The number of nodes reachable from the root (with a stack allocated fallibly).
    fn try_preorder_count(&self) -> Result<usize, CsrError> {
        let mut stack = Vec::new();
        stack.try_reserve(64).map_err(|_| CsrError::OutOfMemory)?;
        stack.push(0);
        let mut count = 0;
        while let Some(node) = stack.pop() {
            count += 1;
            let kids = self.children(node);
            stack
                .try_reserve(kids.len())
                .map_err(|_| CsrError::OutOfMemory)?;
            stack.extend(kids.iter().rev());
        }
        Ok(count)
    }

    /// An empty builder for parsers: nodes are added with [`Tree::add_node`].
    pub(crate) fn builder() -> Tree {
        Tree {
            start: vec![],
            len: vec![],
            children: vec![],
            values: vec![],
            labels: BTreeMap::new(),
            parent: vec![],
            chance: vec![],
            weight: vec![],
        }
    }

    /// Adds a node (a leaf until [`Tree::set_children`]) and returns its index.
    pub(crate) fn add_node(&mut self, value: i32, label: Option<Box<str>>) -> usize {
        self.start.push(0);
        self.len.push(0);
        self.values.push(value);
        let node = self.values.len() - 1;
        if let Some(label) = label {
            self.labels.insert(node, label);
        }
        self.parent.push(NO_PARENT);
        if !self.chance.is_empty() {
            self.chance.push(false);
            self.weight.push(1.0);
        }
        node
    }

    /// Gives `node` its children, leftmost first.
    pub(crate) fn set_children(&mut self, node: usize, kids: &[usize]) {
        self.start[node] = self.children.len();
        self.len[node] = kids.len();
        self.children.extend_from_slice(kids);
        for &k in kids {
            self.parent[k] = node;
        }
    }

    /// How many nodes the tree has, leaves included.
    pub fn node_count(&self) -> usize {
        self.values.len()
    }

    /// The children of `node`, leftmost first (empty for a leaf).
    pub fn children(&self, node: usize) -> &[usize] {
        &self.children[self.start[node]..self.start[node] + self.len[node]]
    }

    /// Whether `node` has no children.
    pub fn is_leaf(&self, node: usize) -> bool {
        self.len[node] == 0
    }

    /// A leaf's score (0 for an inner node).
    pub fn value(&self, node: usize) -> i32 {
        self.values[node]
    }

    /// `node`'s label, if the text gave it one.
    pub fn label(&self, node: usize) -> Option<&str> {
        self.labels.get(&node).map(|l| &**l)
    }

    /// The parent of `node`, or `None` for the root.
    pub fn parent(&self, node: usize) -> Option<usize> {
        (self.parent[node] != NO_PARENT).then_some(self.parent[node])
    }

    /// The nodes in preorder (a node before its children, children left to right).
    pub fn preorder(&self) -> impl Iterator<Item = usize> + '_ {
        let mut stack = vec![0];
        std::iter::from_fn(move || {
            let node = stack.pop()?;
            stack.extend(self.children(node).iter().rev());
            Some(node)
        })
    }

    /// The nodes an optimal line (child positions from the root down) passes through,
    /// the root excluded: the last is the leaf it reaches.
    pub fn line_nodes(&self, line: &[usize]) -> Vec<usize> {
        let mut node = 0;
        line.iter()
            .map(|&c| {
                node = self.children(node)[c];
                node
            })
            .collect()
    }

    /// Whether MAX moves at each node, with MAX at the root if `max_at_root` and the
    /// sides alternating at every level (chance levels included).
    pub fn sides(&self, max_at_root: bool) -> Vec<bool> {
        let mut is_max = vec![max_at_root; self.node_count()];
        for node in self.preorder() {
            for &c in self.children(node) {
                is_max[c] = !is_max[node];
            }
        }
        is_max
    }

    /// The number of edges on the longest path from the root to a leaf.
    pub fn height(&self) -> usize {
        let mut depth = vec![0usize; self.node_count()];
        let mut height = 0;
        for node in self.preorder() {
            for &c in self.children(node) {
                depth[c] = depth[node] + 1;
                height = height.max(depth[c]);
            }
        }
        height
    }

    /// Whether every label is distinct (parsed trees always are).
    pub fn labels_are_unique(&self) -> bool {
        let mut seen = HashSet::new();
        self.labels.values().all(|l| seen.insert(l))
    }
}

/// Two trees are equal when they have the same shape, scores, labels, chance nodes and
/// weights, whatever the numbering of their nodes.
impl PartialEq for Tree {
    fn eq(&self, other: &Tree) -> bool {
        let (mut a, mut b) = (self.preorder(), other.preorder());
        loop {
            match (a.next(), b.next()) {
                (None, None) => return true,
                (Some(x), Some(y)) => {
                    let same = self.len[x] == other.len[y]
                        && self.label(x) == other.label(y)
                        && self.is_chance(x) == other.is_chance(y)
                        && self.weight(x) == other.weight(y)
                        && (!self.is_leaf(x) || self.value(x) == other.value(y));
                    if !same {
                        return false;
                    }
                }
                _ => return false,
            }
        }
    }
}

impl GameTree for Tree {
    type Node = usize;

    fn root(&self) -> usize {
        0
    }

    fn leaf_value(&self, node: usize) -> Option<i32> {
        self.is_leaf(node).then(|| self.values[node])
    }

    fn child_count(&self, node: usize) -> usize {
        self.len[node]
    }

    fn child(&self, node: usize, i: usize) -> usize {
        self.children[self.start[node] + i]
    }
}

/// The roots of the subtrees that alpha-beta prunes (never enters), in the order it cut
/// them, with MAX to move at the root if `max_at_root`.
pub fn pruned_subtrees(tree: &Tree, max_at_root: bool) -> Vec<usize> {
    struct Cuts<'a>(&'a Tree, Vec<usize>);
    impl super::solve::Trace<usize> for Cuts<'_> {
        fn value(&mut self, _: usize, _: i32, _: i32, _: i32) {}
        fn cut(&mut self, node: usize, first_pruned: usize, _: i32, _: i32) {
            self.1
                .extend_from_slice(&self.0.children(node)[first_pruned..]);
        }
    }
    let mut cuts = Cuts(tree, Vec::new());
    super::solve::solve_traced(tree, max_at_root, super::Algorithm::AlphaBeta, &mut cuts);
    cuts.1
}

/// Memory a tree's arrays could not have: `OutOfMemory` in either error type.
struct NoMemory;

impl From<NoMemory> for CsrError {
    fn from(_: NoMemory) -> Self {
        CsrError::OutOfMemory
    }
}

impl From<NoMemory> for TreeError {
    fn from(_: NoMemory) -> Self {
        TreeError::OutOfMemory
    }
}

/// `n` copies of `value`, or `NoMemory` (never an abort: the size comes from a caller).
fn filled<T: Clone>(n: usize, value: T) -> Result<Vec<T>, NoMemory> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| NoMemory)?;
    v.resize(n, value);
    Ok(v)
}

/// The first `n` items, in a vector allocated fallibly.
fn collected<T>(n: usize, items: impl Iterator<Item = T>) -> Result<Vec<T>, NoMemory> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| NoMemory)?;
    v.extend(items.take(n));
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csr_validation() {
        // 0 -> (1, 2), 2 -> (3)
        let ok = Tree::from_csr(&[0, 2, 2, 3, 3], &[1, 2, 3], &[0, 5, 0, 7]).unwrap();
        assert_eq!((ok.node_count(), ok.height(), ok.value(3)), (4, 2, 7));
        assert_eq!(
            Tree::from_csr(&[0], &[], &[]).unwrap_err(),
            CsrError::NoNodes
        );
        assert_eq!(
            Tree::from_csr(&[0, 2, 1, 3, 3], &[1, 2, 3], &[0; 4]).unwrap_err(),
            CsrError::BadOffsets
        );
        assert_eq!(
            Tree::from_csr(&[0, 2, 2, 3], &[1, 2, 3], &[0; 4]).unwrap_err(),
            CsrError::BadOffsets
        );
        assert_eq!(
            Tree::from_csr(&[0, 2, 2, 3, 3], &[1, 2, 9], &[0; 4]).unwrap_err(),
            CsrError::ChildOutOfRange
        );
        assert_eq!(
            Tree::from_csr(&[0, 2, 2, 3, 3], &[1, 2, 0], &[0; 4]).unwrap_err(),
            CsrError::NotATree
        );
        assert_eq!(
            Tree::from_csr(&[0, 2, 2, 3, 3], &[1, 2, 2], &[0; 4]).unwrap_err(),
            CsrError::NotATree
        );
        // 0 -> (1); 2 <-> 3 form a cycle out of the root's reach.
        assert_eq!(
            Tree::from_csr(&[0, 1, 1, 2, 3], &[1, 3, 2], &[0; 4]).unwrap_err(),
            CsrError::NotATree
        );
    }

    #[test]
    fn from_complete_keeps_the_leaves_in_order() {
        let t = Tree::from_complete(&[1, 2, 3, 4, 5, 6, 7, 8, 9], 3).unwrap();
        let leaves: Vec<i32> = t
            .preorder()
            .filter(|&n| t.is_leaf(n))
            .map(|n| t.value(n))
            .collect();
        assert_eq!(leaves, (1..=9).collect::<Vec<_>>());
        assert_eq!(t.height(), 2);
    }
}
