//! The textbook `minimax` and `alphabeta` with arbitrary arguments over a leaf array of
//! the size the contract requires (2^h): valid queries equal the reference algorithms,
//! and invalid ones return 0 with the reason recorded for `mm_last_error`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use minimax::ffi::boundary::mm_last_error;
use minimax::ffi::status::mm_status::*;
use minimax::ffi::tree::textbook::{alphabeta, minimax};
use minimax::tree::reference;

fn int(data: &[u8], at: usize) -> i32 {
    let mut b = [0u8; 4];
    for (i, x) in b.iter_mut().enumerate() {
        *x = data.get(at + i).copied().unwrap_or(0);
    }
    i32::from_le_bytes(b)
}

/// A small integer mostly, any integer sometimes, so that both valid and invalid
/// arguments are common.
fn arg(data: &[u8], at: usize) -> i32 {
    let v = int(data, at);
    if v & 0x100 == 0 { (v >> 9) % 20 } else { v }
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 24 {
        return;
    }
    let h = data[0] as u32 % 13; // the leaf array is 2^h long, as the contract requires
    let n = 1usize << h;
    let leaves: Vec<i32> = (0..n).map(|i| int(data, 24 + (i * 4) % (data.len() - 23).max(1))).collect();
    // The contract: the array holds 2^height values. So the height is h, or one that is
    // refused before anything is read (negative, or above MM_MAX_HEIGHT = 30).
    let height = match arg(data, 4) {
        a if data[1] & 1 == 1 && !(0..=30).contains(&a) => a,
        _ => h as i32,
    };
    let (depth, node) = (arg(data, 8), arg(data, 12));
    let is_max = data[1] & 2 == 2;
    let (alpha, beta) = (int(data, 16), int(data, 20));
    let valid = height == h as i32
        && depth >= 0
        && depth <= height
        && node >= 0
        && (node as i64) < (1i64 << depth);

    // SAFETY: `leaves` holds 2^h values; a valid call reads only those under the node.
    let v = unsafe { minimax(depth, node, is_max, leaves.as_ptr(), height) };
    let status = mm_last_error();
    if valid {
        assert_eq!(status, MM_OK);
        let expected =
            reference::minimax(depth as u32, node as usize, is_max, &leaves[..1 << height], height as u32);
        assert_eq!(v, expected);
    } else {
        assert_ne!(status, MM_OK, "h={height} depth={depth} node={node}");
        assert_eq!(v, 0);
    }
    // SAFETY: as above.
    let v = unsafe { alphabeta(height, depth, node, is_max, leaves.as_ptr(), alpha, beta) };
    let status = mm_last_error();
    if valid {
        assert_eq!(status, MM_OK);
        let expected = reference::alphabeta(
            height as u32,
            depth as u32,
            node as usize,
            is_max,
            &leaves[..1 << height],
            alpha,
            beta,
        );
        assert_eq!(v, expected);
    } else {
        assert_ne!(status, MM_OK);
        assert_eq!(v, 0);
    }
    // NULL is reported, never read.
    // SAFETY: a NULL array is part of the contract: it is refused.
    let v = unsafe { minimax(depth, node, is_max, std::ptr::null(), height) };
    assert_eq!((v, mm_last_error()), (0, MM_ERR_NULL_ARGUMENT));
});
