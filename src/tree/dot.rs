//! A Graphviz picture of a search: MAX nodes as upward triangles, MIN nodes as downward
//! ones, chance nodes as circles, leaves as boxes; each evaluated node's value (or
//! fail-soft bound; a chance search shows expected values, and each chance edge its
//! probability); the optimal line in bold red; and the pruned branches dashed and grey
//! (for alpha-beta, with the bounds that cut them).

use std::fmt::Write;

use super::chance::{ChanceSolution, expected_values, solve_chance};
use super::general::Tree;
use super::solve::{Algorithm, Solution, Trace, solve_traced};
use crate::search::{GameError, Method};

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

    let on_line = line_marks(tree, &solution.line);
    let is_max = tree.sides(max_at_root);
    let mut pruned = vec![false; n];
    for node in tree.preorder() {
        let first_pruned = rec.cuts[node].map_or(usize::MAX, |c| c.0);
        for (i, &c) in tree.children(node).iter().enumerate() {
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
        node_line(&mut out, node, &text, shape, pruned[node], on_line[node]);
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

/// Searches a tree with chance nodes by a chance method and draws it: every node the
/// search entered with its expected value (exact, from the definition), each chance
/// edge with its weight and probability, the nodes that Star1 or Star2 pruned dashed and grey.
pub fn dot_chance(
    tree: &Tree,
    max_at_root: bool,
    method: Method,
) -> Result<(String, ChanceSolution), GameError> {
    let solution = solve_chance(tree, max_at_root, method)?;
    let values = expected_values(tree, max_at_root);
    let on_line = line_marks(tree, &solution.line);
    let is_max = tree.sides(max_at_root);
    let mut out = String::from(
        "digraph expectimax {\n  graph [ordering=out];\n  node [fontname=\"Helvetica\"];\n",
    );
    for node in tree.preorder() {
        let name = tree
            .label(node)
            .map(|l| format!("{l}\\n"))
            .unwrap_or_default();
        let (shape, side) = match (tree.is_leaf(node), tree.is_chance(node), is_max[node]) {
            (true, _, _) => ("box", ""),
            (false, true, _) => ("circle", "chance "),
            (false, false, true) => ("triangle", "MAX "),
            (false, false, false) => ("invtriangle", "MIN "),
        };
        let visited = solution.visited[node];
        let text = if tree.is_leaf(node) {
            format!("{name}{}", tree.value(node))
        } else if visited {
            format!("{name}{side}= {}", short(values[node]))
        } else {
            format!("{name}{side}").trim_end().to_string()
        };
        node_line(&mut out, node, &text, shape, !visited, on_line[node]);
    }
    for node in tree.preorder() {
        let total: f64 = tree.children(node).iter().map(|&c| tree.weight(c)).sum();
        for &c in tree.children(node) {
            let mut attrs = Vec::new();
            if tree.is_chance(node) {
                let (w, p) = (short(tree.weight(c)), short(tree.weight(c) / total));
                attrs.push(format!("label=\"w={w}, p={p}\""));
            }
            if !solution.visited[c] {
                attrs.push("style=dashed, color=gray60, fontcolor=gray60".into());
            } else if on_line[c] {
                attrs.push("color=red, penwidth=2.5".into());
            }
            let attrs = match attrs.is_empty() {
                true => String::new(),
                false => format!(" [{}]", attrs.join(", ")),
            };
            let _ = writeln!(out, "  n{node} -> n{c}{attrs};");
        }
    }
    out.push_str("}\n");
    Ok((out, solution))
}

/// Which nodes an optimal line (child positions from the root) passes through, the root
/// included.
fn line_marks(tree: &Tree, line: &[usize]) -> Vec<bool> {
    let mut on_line = vec![false; tree.node_count()];
    on_line[0] = true;
    for node in tree.line_nodes(line) {
        on_line[node] = true;
    }
    on_line
}

/// One node's line: pruned nodes dashed grey, the optimal line's filled red.
fn node_line(out: &mut String, node: usize, text: &str, shape: &str, pruned: bool, on_line: bool) {
    let style = if pruned {
        ", style=dashed, color=gray60, fontcolor=gray60"
    } else if on_line {
        ", style=\"filled,bold\", color=red, fillcolor=mistyrose"
    } else {
        ""
    };
    let _ = writeln!(out, "  n{node} [label=\"{text}\", shape={shape}{style}];");
}

/// A value in a few digits: `7`, `4.5`, `0.333`.
fn short(v: f64) -> String {
    let s = format!("{v:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}
