//! Where and why a text failed to parse, from C: `mm_parse_error`, which the tree notation
//! (`mm_tree_parse`) and a Multi-ProbCut fit's text (`mm_probcut_parse`) write.

use std::ffi::c_char;

/// Where and why a text failed to parse.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct mm_parse_error {
    /// 1-based line of the error.
    pub line: usize,
    /// 1-based column (in bytes) of the error.
    pub column: usize,
    /// "line L, column C: what is wrong", NUL-terminated (cut short if longer).
    pub message: [c_char; 160],
}

impl mm_parse_error {
    /// The error at `line` and `column`, its message `why` cut to fit (NUL-terminated).
    pub(crate) fn new(line: usize, column: usize, why: &str) -> mm_parse_error {
        let mut message = [0 as c_char; 160];
        for (m, b) in message.iter_mut().zip(why.bytes().take(159)) {
            *m = b as c_char;
        }
        mm_parse_error {
            line,
            column,
            message,
        }
    }
}
