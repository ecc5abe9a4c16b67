//! Trees with chance nodes: random trees in the text notation and as CSR arrays searched
//! by expectimax, Star1 and Star2 against a plain expectimax written here; leaf arrays
//! with their MIN levels as chance levels (the textbook exercise, worked by hand); the
//! parser's weight errors through the C API; the DOT picture; and tree_solver.c.

use crate::common;

use common::{Rng, build_example, run, stdout};
use minimax::ffi::status::mm_status::{self, *};
use minimax::ffi::tree::leaves::{
    MM_ALGORITHM_ALPHABETA, MM_ALGORITHM_EXPECTIMAX, MM_ALGORITHM_STAR1, MM_ALGORITHM_STAR2,
    mm_chance_solution, mm_expectimax_leaves, mm_solution, mm_solve_leaves,
};
use minimax::ffi::tree::trees::{
    mm_tree, mm_tree_expectimax, mm_tree_free, mm_tree_from_csr_chance, mm_tree_parse,
    mm_tree_solution, mm_tree_solve,
};
use minimax::search::Method;
use minimax::tree::chance::{expected_values, solve_chance};
use minimax::tree::{Tree, dot, text};
use std::mem::MaybeUninit;

const METHODS: [Method; 3] = [Method::Expectimax, Method::Star1, Method::Star2];

/// Plain expectiminimax over the tree's own accessors; sides alternate at every level.
fn plain(t: &Tree, node: usize, max: bool) -> f64 {
    let kids = t.children(node);
    if kids.is_empty() {
        return t.value(node) as f64;
    }
    let vals: Vec<f64> = kids.iter().map(|&c| plain(t, c, !max)).collect();
    if t.is_chance(node) {
        let total: f64 = kids.iter().map(|&c| t.weight(c)).sum();
        let mut sum = 0.0;
        for (&c, v) in kids.iter().zip(vals) {
            if t.weight(c) > 0.0 {
                sum += t.weight(c) * v;
            }
        }
        sum / total
    } else if max {
        vals.into_iter().fold(f64::NEG_INFINITY, f64::max)
    } else {
        vals.into_iter().fold(f64::INFINITY, f64::min)
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

/// A random tree in the notation, with chance nodes of random weights (some zero).
fn random_text(rng: &mut Rng, depth: u32, out: &mut String) {
    if depth == 0 || rng.range(0, 4) == 0 {
        out.push_str(&rng.range(-20, 20).to_string());
        return;
    }
    let chance = rng.range(0, 2) == 0;
    out.push_str(if chance { "?(" } else { "(" });
    let n = rng.range(1, 4);
    for i in 0..n {
        if chance {
            let w = if i == 0 {
                rng.range(1, 9)
            } else {
                rng.range(0, 9)
            };
            out.push_str(&format!("{}: ", w as f64 / 4.0));
        }
        random_text(rng, depth - 1, out);
        out.push(' ');
    }
    out.push(')');
}

/// CSR arrays: offsets, children, values, chance flags, weights.
type Csr = (Vec<usize>, Vec<usize>, Vec<i32>, Vec<bool>, Vec<f64>);

/// The CSR arrays of a tree, in preorder numbering.
fn csr(t: &Tree) -> Csr {
    let order: Vec<usize> = t.preorder().collect();
    let mut index = vec![0; t.node_count()];
    for (i, &n) in order.iter().enumerate() {
        index[n] = i;
    }
    let (mut offsets, mut children, mut values, mut chance, mut weights) =
        (vec![0], vec![], vec![], vec![], vec![]);
    for &n in &order {
        for &c in t.children(n) {
            children.push(index[c]);
            weights.push(t.weight(c));
        }
        offsets.push(children.len());
        values.push(t.value(n));
        chance.push(t.is_chance(n));
    }
    (offsets, children, values, chance, weights)
}

#[test]
fn random_chance_trees_against_plain_expectimax() {
    let mut rng = Rng::new(21);
    // (6 rounds under Miri, which checks the C API's pointer work: 87 s with 16.)
    for round in 0..if cfg!(miri) { 6 } else { 400 } {
        let mut s = String::new();
        random_text(&mut rng, 1 + round % 6, &mut s);
        let t = text::parse(&s).unwrap();
        assert_eq!(text::parse(&text::print(&t)).unwrap(), t, "{s}");
        let (o, c, v, ch, w) = csr(&t);
        assert_eq!(Tree::from_csr_chance(&o, &c, &v, &ch, &w).unwrap(), t);
        for max in [true, false] {
            let want = plain(&t, 0, max);
            assert_eq!(expected_values(&t, max)[0].to_bits(), want.to_bits(), "{s}");
            for method in METHODS {
                let got = solve_chance(&t, max, method).unwrap();
                assert!(
                    close(got.value, want),
                    "{s} {method:?}: {} vs {want}",
                    got.value
                );
                if method == Method::Expectimax {
                    assert_eq!(got.value.to_bits(), want.to_bits());
                    // Every node but those drawn with probability 0.
                    let drawn = |n: usize| {
                        let mut n = n;
                        while let Some(p) = t.parent(n) {
                            if t.is_chance(p) && t.weight(n) == 0.0 {
                                return false;
                            }
                            n = p;
                        }
                        true
                    };
                    for n in 0..t.node_count() {
                        assert_eq!(got.visited[n], drawn(n), "{s}: node {n}");
                    }
                }
                // The line's first step, if any, is an optimal choice.
                if let Some(&first) = got.line.first() {
                    let child = t.children(0)[first];
                    assert!(close(plain(&t, child, !max), want), "{s} {method:?}");
                }
            }
        }
    }
}

/// `mm_tree_from_csr_chance` on CSR arrays: the status and the handle (NULL on error).
fn from_csr_c((o, c, v, ch, w): &Csr) -> (mm_status, *mut mm_tree) {
    let mut tree = std::ptr::null_mut();
    // SAFETY: each array with its length (`ch` one per value, `w` one per child);
    // `tree` is writable.
    let st = unsafe {
        mm_tree_from_csr_chance(
            o.as_ptr(),
            o.len(),
            c.as_ptr(),
            c.len(),
            v.as_ptr(),
            v.len(),
            ch.as_ptr(),
            w.as_ptr(),
            &mut tree,
        )
    };
    (st, tree)
}

/// Runs `f` with a parsed tree handle.
fn with_tree<R>(text: &str, f: impl FnOnce(*mut mm_tree) -> R) -> R {
    let mut tree = std::ptr::null_mut();
    // SAFETY: the text and its length; `tree` is writable; no error buffer.
    let s = unsafe {
        mm_tree_parse(
            text.as_ptr().cast(),
            text.len(),
            &mut tree,
            std::ptr::null_mut(),
        )
    };
    assert_eq!(s, MM_OK, "{text}");
    let r = f(tree);
    // SAFETY: a live handle, freed once.
    unsafe { mm_tree_free(tree) };
    r
}

fn expectimax_c(
    tree: *mut mm_tree,
    algorithm: u32,
) -> Result<(mm_chance_solution, Vec<usize>), mm_status> {
    let mut out = MaybeUninit::uninit();
    let mut line = vec![0usize; 64];
    // SAFETY: a live handle, a writable result and 64 writable line entries.
    let s = unsafe {
        mm_tree_expectimax(
            tree,
            true,
            algorithm,
            out.as_mut_ptr(),
            line.as_mut_ptr(),
            64,
        )
    };
    if s != MM_OK {
        return Err(s);
    }
    // SAFETY: written on MM_OK.
    let out = unsafe { out.assume_init() };
    line.truncate(out.line_len);
    Ok((out, line))
}

#[test]
fn the_textbook_exercise_through_the_c_api() {
    // MAX, then a fair coin, then MAX: (max(3,5) + max(6,9)) / 2 = 7 on the left,
    // (max(1,2) + max(0,-1)) / 2 = 1 on the right: MAX goes left, for 7.
    let leaves = [3, 5, 6, 9, 1, 2, 0, -1];
    for algorithm in [
        MM_ALGORITHM_EXPECTIMAX,
        MM_ALGORITHM_STAR1,
        MM_ALGORITHM_STAR2,
    ] {
        let mut out = MaybeUninit::uninit();
        let mut line = [9usize; 3];
        // SAFETY: 8 leaves, a writable result, 3 writable line entries.
        let s = unsafe {
            mm_expectimax_leaves(
                leaves.as_ptr(),
                8,
                2,
                true,
                algorithm,
                out.as_mut_ptr(),
                line.as_mut_ptr(),
                3,
            )
        };
        assert_eq!(s, MM_OK);
        // SAFETY: written on MM_OK.
        let out = unsafe { out.assume_init() };
        assert_eq!(
            (out.value, out.line_len, line[0]),
            (7.0, 1, 0),
            "{algorithm}"
        );
        if algorithm == MM_ALGORITHM_EXPECTIMAX {
            assert_eq!((out.stats.nodes, out.pruned), (15, 0));
        } else {
            assert!(
                out.pruned > 0 && out.stats.nodes < 15,
                "{algorithm}: {out:?}"
            );
        }
    }
    // The same exercise written as text, and as CSR arrays.
    let text = "(?(1: (3 5), 1: (6 9)) ?(1: (1 2), 1: (0 -1)))";
    let (s, line) = with_tree(text, |t| expectimax_c(t, MM_ALGORITHM_STAR2)).unwrap();
    assert_eq!((s.value, line), (7.0, vec![1]));
    let t = text::parse(text).unwrap();
    let arrays = csr(&t);
    let (st, tree) = from_csr_c(&arrays);
    assert_eq!(st, MM_OK);
    assert_eq!(
        expectimax_c(tree, MM_ALGORITHM_EXPECTIMAX).unwrap().0.value,
        7.0
    );
    // Deterministic algorithms refuse a tree with chance nodes.
    let mut sol = MaybeUninit::<mm_tree_solution>::uninit();
    // SAFETY: a live handle, a writable result, no line.
    let st = unsafe {
        mm_tree_solve(
            tree,
            true,
            MM_ALGORITHM_ALPHABETA,
            sol.as_mut_ptr(),
            std::ptr::null_mut(),
            0,
        )
    };
    assert_eq!(st, MM_ERR_GAME_CHANCE_NODE);
    // SAFETY: freed once.
    unsafe { mm_tree_free(tree) };
    // A bad weight in CSR arrays.
    let mut bad = arrays;
    bad.4[2] = -1.0; // the first child of the first chance node (the root has 2 children)
    let (st, tree) = from_csr_c(&bad);
    assert_eq!((st, tree.is_null()), (MM_ERR_BAD_WEIGHT, true));
    // mm_solve_leaves gives integers: a chance algorithm is pointed elsewhere.
    let mut sol = MaybeUninit::<mm_solution>::uninit();
    // SAFETY: 8 leaves and a writable result.
    let st = unsafe {
        mm_solve_leaves(
            leaves.as_ptr(),
            8,
            2,
            true,
            MM_ALGORITHM_STAR1,
            sol.as_mut_ptr(),
        )
    };
    assert_eq!(st, MM_ERR_CHANCE_ALGORITHM);
}

#[test]
fn weight_errors_have_a_status_and_a_place() {
    for (text, line, column) in [
        ("(1\n ?(3 4))", 2, 4),
        ("(?(1: 3) 2: 4)", 1, 10),
        ("?(0: 1, 0: 2)", 1, 1),
    ] {
        let mut tree = std::ptr::null_mut();
        let mut e = MaybeUninit::uninit();
        // SAFETY: the text with its length; writable outputs.
        let s =
            unsafe { mm_tree_parse(text.as_ptr().cast(), text.len(), &mut tree, e.as_mut_ptr()) };
        assert_eq!(s, MM_ERR_PARSE_BAD_WEIGHT, "{text}");
        // SAFETY: filled on a parse error.
        let e = unsafe { e.assume_init() };
        assert_eq!((e.line, e.column), (line, column), "{text}");
    }
}

#[test]
fn the_picture_shows_chance_nodes_probabilities_and_pruning() {
    // C: after F (probability 3/4) gave 2, G cannot lift C's mean to B's 7: it is pruned.
    let t = text::parse("A:(B:?(1: D:(3 5), 1: E:(6 9)) C:?(3: F:(1 2), 1: G:(0 -1)))").unwrap();
    let (picture, s) = dot::dot_chance(&t, true, Method::Star1).unwrap();
    assert_eq!(s.value, 7.0);
    assert!(
        picture.contains("label=\"B\\nchance = 7\", shape=circle"),
        "{picture}"
    );
    assert!(picture.contains("[label=\"w=3, p=0.75\""), "{picture}");
    let pruned: Vec<usize> = (0..t.node_count()).filter(|&n| !s.visited[n]).collect();
    assert!(!pruned.is_empty());
    for n in pruned {
        let node = picture
            .lines()
            .find(|l| l.starts_with(&format!("  n{n} [label=")));
        let edge = picture
            .lines()
            .find(|l| l.ends_with(&format!("-> n{n}")) || l.contains(&format!("-> n{n} [")));
        assert!(
            node.unwrap().contains("dashed") && edge.unwrap().contains("dashed"),
            "{picture}"
        );
    }
    let (all, _) = dot::dot_chance(&t, true, Method::Expectimax).unwrap();
    assert!(!all.contains("dashed"), "plain expectimax prunes nothing");
}

#[test]
#[cfg_attr(
    miri,
    ignore = "builds and runs a C program: Miri cannot start processes"
)]
fn tree_solver_answers_the_chance_exercise() {
    let exe = build_example("tree_solver.c");
    let out = run(&exe, &["c_examples/chance.tree"], "");
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    let t = text::parse(&std::fs::read_to_string("c_examples/chance.tree").unwrap()).unwrap();
    let want = plain(&t, 0, true);
    assert!(
        text.starts_with(&format!("expected value: {want}\n")),
        "{text}"
    );
    assert!(text.contains("MAX at A chooses B"), "{text}");
    assert!(text.contains("nodes visited: expectimax 15,"), "{text}");
}
