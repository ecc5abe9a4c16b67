//! The fast paths (minimax() through the C ABI, the checked API's default, and the window
//! contract of `tree::fast::search`) against the textbook reference, on every height from
//! 0 to 24 and every leaf order; and alphabeta() staying exactly textbook.

use crate::common;

use common::{ORDERS, Order, Rng, leaves};
use minimax::ffi::status::mm_status::MM_OK;
use minimax::ffi::tree::leaves::{MM_ALGORITHM_DEFAULT, mm_solution, mm_solve_leaves};
use minimax::ffi::tree::textbook;
use minimax::tree::{Stats, fast, reference};
use std::mem::MaybeUninit;

fn c_minimax(depth: u32, node: usize, is_max: bool, v: &[i32], h: u32) -> i32 {
    // SAFETY: `v` holds 2^h values.
    unsafe { textbook::minimax(depth as i32, node as i32, is_max, v.as_ptr(), h as i32) }
}

fn c_alphabeta(h: u32, is_max: bool, v: &[i32], a: i32, b: i32) -> i32 {
    // SAFETY: `v` holds 2^h values.
    unsafe { textbook::alphabeta(h as i32, 0, 0, is_max, v.as_ptr(), a, b) }
}

fn checked_default(v: &[i32], is_max: bool) -> mm_solution {
    let mut out = MaybeUninit::uninit();
    // SAFETY: `v` is a live slice and `out` is writable.
    let status = unsafe {
        mm_solve_leaves(
            v.as_ptr(),
            v.len(),
            2,
            is_max,
            MM_ALGORITHM_DEFAULT,
            out.as_mut_ptr(),
        )
    };
    assert_eq!(status, MM_OK);
    // SAFETY: MM_OK means `out` was written.
    unsafe { out.assume_init() }
}

/// The line is right if each step goes to the leftmost child whose reference value is the
/// best for the side to move, and it ends at a leaf of the root's value.
fn check_line(v: &[i32], h: u32, is_max: bool, s: &mm_solution) {
    let root = reference::minimax(0, 0, is_max, v, h);
    assert_eq!((s.value, s.line_len), (root, h as usize));
    let mut node = 0;
    for depth in 0..h {
        let side = is_max ^ (depth % 2 == 1);
        let left = reference::minimax(depth + 1, node * 2, !side, v, h);
        let right = reference::minimax(depth + 1, node * 2 + 1, !side, v, h);
        let take_right = if side { right > left } else { right < left };
        assert_eq!(s.line[depth as usize], take_right as usize, "depth {depth}");
        node = node * 2 + take_right as usize;
    }
    assert_eq!((s.best_leaf, v[node]), (node, root));
}

#[test]
fn every_height_and_order_against_the_reference() {
    let mut rng = Rng::new(0xfa57);
    for h in 0..=24u32 {
        for order in ORDERS {
            if h > 18 && order != Order::Random && order != Order::Worst {
                continue;
            }
            let v = leaves(&mut rng, h, order);
            for is_max in [true, false] {
                let expected = reference::minimax(0, 0, is_max, &v, h);
                assert_eq!(
                    c_minimax(0, 0, is_max, &v, h),
                    expected,
                    "h {h} {order:?} max {is_max}"
                );
                assert_eq!(checked_default(&v, is_max).value, expected);
                if h <= 20 {
                    assert_eq!(
                        c_alphabeta(h, is_max, &v, i32::MIN, i32::MAX),
                        reference::alphabeta(h, 0, 0, is_max, &v, i32::MIN, i32::MAX)
                    );
                }
                if h <= 12 {
                    check_line(&v, h, is_max, &checked_default(&v, is_max));
                }
            }
        }
    }
}

#[test]
fn worst_order_prunes_nothing_in_the_reference() {
    // The order the benchmark's worst case uses really is alpha-beta's worst case.
    let mut rng = Rng::new(3);
    for h in [4, 10, 14] {
        let v = leaves(&mut rng, h, Order::Worst);
        let mut read = 0;
        reference::alphabeta_counting(h, 0, 0, true, &v, i32::MIN, i32::MAX, &mut read);
        assert_eq!(read, 1 << h);
    }
}

#[test]
fn every_node_of_small_trees() {
    let mut rng = Rng::new(0xa11);
    for h in [9, 10, 11] {
        for order in ORDERS {
            let v = leaves(&mut rng, h, order);
            for depth in 0..=h {
                for node in 0..1usize << depth {
                    for is_max in [true, false] {
                        assert_eq!(
                            c_minimax(depth, node, is_max, &v, h),
                            reference::minimax(depth, node, is_max, &v, h),
                            "h {h} {order:?} depth {depth} node {node}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn fast_search_keeps_the_fail_soft_contract_for_any_window() {
    let mut rng = Rng::new(0xbeef);
    for _ in 0..1000 {
        let h = rng.range(0, 14) as u32;
        let order = ORDERS[rng.range(0, 4) as usize];
        let v = leaves(&mut rng, h, order);
        let is_max = rng.range(0, 1) == 1;
        let truth = reference::minimax(0, 0, is_max, &v, h);
        let (alpha, beta) = match rng.range(0, 2) {
            0 => (rng.bound(), rng.bound()),
            _ => (
                truth.saturating_sub(rng.range(-2, 2) as i32),
                truth.saturating_add(rng.range(-2, 2) as i32),
            ),
        };
        if alpha >= beta {
            continue; // an empty window promises nothing
        }
        let r = fast::search(&v, h, is_max, alpha, beta, &mut Stats::default());
        if r <= alpha {
            assert!(truth <= r, "fail-low bound {r} below the value {truth}");
        } else if r >= beta {
            assert!(truth >= r, "fail-high bound {r} above the value {truth}");
        } else {
            assert_eq!(r, truth, "inside ({alpha}, {beta})");
        }
    }
}

#[test]
fn extreme_and_tied_leaves() {
    for h in [0, 3, 9, 12] {
        let n = 1usize << h;
        for v in [
            vec![i32::MIN; n],
            vec![i32::MAX; n],
            (0..n)
                .map(|i| if i % 3 == 0 { i32::MIN } else { i32::MAX })
                .collect(),
        ] {
            for is_max in [true, false] {
                let expected = reference::minimax(0, 0, is_max, &v, h);
                assert_eq!(c_minimax(0, 0, is_max, &v, h), expected);
                check_line(&v, h, is_max, &checked_default(&v, is_max));
            }
        }
    }
}
