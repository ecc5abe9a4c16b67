//! A Graphviz picture of a search: MAX nodes as upward triangles, MIN nodes as downward
//! ones, leaves as boxes; each evaluated node's value (or fail-soft bound); the optimal
//! line in bold red; and, for alpha-beta, the pruned branches dashed and grey with the
//! bounds that cut them.

use std::fmt::Write;

use super::general::Tree;
use super::solve::{Algorithm, Solution, Trace, solve_traced};

#[derive(Default)]
struct Recorder {
    /// What each node returned, with its entry window.
    values: Vec<Option<(i32, i32, i32)>>,
    /// Where each node stopped: the first pruned child and the bounds then.
    cuts: Vec<Option<(usize, i32, i32)>>,
}

impl Trace<usize> for Recorder {
    fn value(&mut self, node: usize, value: i32, alpha: i32, beta: i32) {
        self.values[node] = Some((value, alpha, beta));
    }
    fn cut(&mut self, node: usize, first_pruned: usize, alpha: i32, beta: i32) {
        self.cuts[node] = Some((first_pruned, alpha, beta));
    }
}

fn bound(v: i32) -> String {
    match v {
        i32::MIN => "-inf".into(),
        i32::MAX => "+inf".into(),
        v => v.to_string(),
    }
}

/// The value as the search knows it: `= v` exact, `<= v` or `>= v` a fail-soft bound.
fn shown(value: i32, alpha: i32, beta: i32) -> String {
    if value <= alpha && alpha != i32::MIN {
        format!("<= {value}")
    } else if value >= beta && beta != i32::MAX {
        format!(">= {value}")
    } else {
        format!("= {value}")
    }
}

/// Solves `tree` and draws the search in the DOT language.
pub fn dot(tree: &Tree, max_at_root: bool, algorithm: Algorithm) -> (String, Solution) {
    let n = tree.node_count();
    let mut rec = Recorder {
        values: vec![None; n],
        cuts: vec![None; n],
    };
    let solution = solve_traced(tree, max_at_root, algorithm, &mut rec);

    let mut on_line = vec![false; n];
    on_line[0] = true;
    for node in tree.line_nodes(&solution.line) {
        on_line[node] = true;
    }
    let mut is_max = vec![max_at_root; n];
    let mut pruned = vec![false; n];
    for node in tree.preorder() {
        let first_pruned = rec.cuts[node].map_or(usize::MAX, |c| c.0);
        for (i, &c) in tree.children(node).iter().enumerate() {
            is_max[c] = !is_max[node];
            pruned[c] = pruned[node] || i >= first_pruned;
        }
    }

    let mut out = String::from(
        "digraph minimax {\n  graph [ordering=out];\n  node [fontname=\"Helvetica\"];\n",
    );
    for node in tree.preorder() {
        let name = tree
            .label(node)
            .map(|l| format!("{l}\\n"))
            .unwrap_or_default();
        let (shape, side) = match (tree.is_leaf(node), is_max[node]) {
            (true, _) => ("box", ""),
            (false, true) => ("triangle", "MAX "),
            (false, false) => ("invtriangle", "MIN "),
        };
        let text = match rec.values[node] {
            _ if tree.is_leaf(node) => format!("{name}{}", tree.value(node)),
            Some((v, a, b)) => format!("{name}{side}{}", shown(v, a, b)),
            None => format!("{name}{side}").trim_end().to_string(),
        };
        let style = if pruned[node] {
            ", style=dashed, color=gray60, fontcolor=gray60"
        } else if on_line[node] {
            ", style=\"filled,bold\", color=red, fillcolor=mistyrose"
        } else {
            ""
        };
        let _ = writeln!(out, "  n{node} [label=\"{text}\", shape={shape}{style}];");
    }
    for node in tree.preorder() {
        for &c in tree.children(node) {
            let attrs = if pruned[c] {
                match rec.cuts[node] {
                    Some((first, a, b)) if !pruned[node] && tree.children(node)[first] == c => {
                        format!(
                            " [style=dashed, color=gray60, fontcolor=gray60, label=\"cut: alpha {} >= beta {}\"]",
                            bound(a),
                            bound(b)
                        )
                    }
                    _ => " [style=dashed, color=gray60]".to_string(),
                }
            } else if on_line[c] {
                " [color=red, penwidth=2.5]".to_string()
            } else {
                String::new()
            };
            let _ = writeln!(out, "  n{node} -> n{c}{attrs};");
        }
    }
    out.push_str("}\n");
    (out, solution)
}
