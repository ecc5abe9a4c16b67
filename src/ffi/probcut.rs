//! A Multi-ProbCut fit from C: `mm_probcut`, made by a calibration (`twoplayer/calibrate.rs`),
//! read from text or built pair by pair, written back as text, and given to searches
//! through `mm_search_options.probcut`, which copy it.

use std::alloc::{Layout, alloc};
use std::ffi::c_char;

use crate::ffi::args::{non_null, slice, write_text};
use crate::ffi::boundary::status_call;
use crate::ffi::parse_error::mm_parse_error;
use crate::ffi::status::mm_status::{self, *};
use crate::search::{ProbCut, ProbCutError, ProbCutPair};

/// A Multi-ProbCut fit (opaque): for each stage of the game and pair of depths, a line
/// that predicts a deep search's value from a shallow one's, and one confidence `t`.
pub struct mm_probcut {
    fit: ProbCut,
}

impl mm_probcut {
    /// The C face of a fit, for Rust code that calls the C functions with one (the
    /// Python package's games written in C).
    pub fn new(fit: ProbCut) -> mm_probcut {
        mm_probcut { fit }
    }

    /// The fit.
    pub fn fit(&self) -> &ProbCut {
        &self.fit
    }
}

/// One pair of a fit: at stage `stage`, `v_deep ≈ a * v_shallow + b`, with an error of
/// standard deviation `sigma` (score units), fitted on `samples` positions (0 for a
/// pair made by hand).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct mm_probcut_pair {
    /// The stage of the game (the game's `stage` callback) the pair is for.
    pub stage: u32,
    /// The depth of the nodes the pair cuts (2 to 63).
    pub deep: u32,
    /// The depth of the search that predicts theirs (1 to `deep - 1`).
    pub shallow: u32,
    /// The positions the pair was fitted on.
    pub samples: u32,
    /// The slope of the prediction (finite, above 0).
    pub a: f64,
    /// Its offset (finite).
    pub b: f64,
    /// The standard deviation of its error (finite, at least 0).
    pub sigma: f64,
}

impl From<&ProbCutPair> for mm_probcut_pair {
    fn from(p: &ProbCutPair) -> Self {
        mm_probcut_pair {
            stage: p.stage,
            deep: p.deep,
            shallow: p.shallow,
            samples: p.samples,
            a: p.a,
            b: p.b,
            sigma: p.sigma,
        }
    }
}

impl From<ProbCutError> for mm_status {
    fn from(e: ProbCutError) -> Self {
        match e {
            ProbCutError::BadPair => MM_ERR_PROBCUT_BAD_PAIR,
            ProbCutError::TooManyPairs => MM_ERR_PROBCUT_TOO_MANY_PAIRS,
            ProbCutError::DuplicatePair => MM_ERR_PROBCUT_DUPLICATE_PAIR,
            ProbCutError::Parse { .. } => MM_ERR_PARSE_PROBCUT,
        }
    }
}

/// Moves `fit` to the heap and writes its handle to `*out` (`MM_ERR_OUT_OF_MEMORY`, and
/// nothing written, if the memory cannot be had).
///
/// # Safety
/// `out` must be writable if not NULL.
pub(crate) unsafe fn give(fit: ProbCut, out: *mut *mut mm_probcut) -> Result<(), mm_status> {
    let out = non_null(out)?;
    let layout = Layout::new::<mm_probcut>();
    // SAFETY: `mm_probcut` is not zero-sized.
    let ptr = unsafe { alloc(layout) }.cast::<mm_probcut>();
    if ptr.is_null() {
        return Err(MM_ERR_OUT_OF_MEMORY);
    }
    // SAFETY: `ptr` is fresh memory of `mm_probcut`'s layout from the global allocator
    // (so `mm_probcut_free` may take it back as a `Box`); `out` is non-NULL and writable
    // (caller's guarantee).
    unsafe {
        ptr.write(mm_probcut { fit });
        out.write(ptr);
    }
    Ok(())
}

/// The fit behind a handle (NULL is `MM_ERR_NULL_ARGUMENT`).
///
/// # Safety
/// `fit` must be NULL or a live fit, not changed during the borrow.
unsafe fn borrow<'a>(fit: *const mm_probcut) -> Result<&'a ProbCut, mm_status> {
    // SAFETY: a live fit or NULL (caller's guarantee), which as_ref turns into None.
    Ok(&unsafe { fit.as_ref() }.ok_or(MM_ERR_NULL_ARGUMENT)?.fit)
}

/// A copy of the fit `mm_search_options.probcut` points to, for a search (NULL: none).
///
/// # Safety
/// `fit` must be NULL or a live fit, not changed during the call.
pub(crate) unsafe fn read_fit(fit: *const mm_probcut) -> Option<ProbCut> {
    // SAFETY: as the function's.
    unsafe { fit.as_ref() }.map(|f| f.fit)
}

/// Makes an empty fit (no pairs; `t` 1.5), for pairs added with `mm_probcut_add`.
///
/// # Safety
/// `out` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_probcut_new(out: *mut *mut mm_probcut) -> mm_status {
    // SAFETY: `out` is writable (caller's guarantee).
    status_call(|| unsafe { give(ProbCut::default(), out) })
}

/// Adds a pair to a fit, in its place (pairs are kept by stage, deep then shallow depth).
/// `MM_ERR_PROBCUT_BAD_PAIR` for a pair that cannot be used,
/// `MM_ERR_PROBCUT_DUPLICATE_PAIR` for a second pair of the same stage and depths,
/// `MM_ERR_PROBCUT_TOO_MANY_PAIRS` past 96; the fit is then unchanged.
///
/// # Safety
/// `fit` must be a live fit that no search is reading; `pair` must be readable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_probcut_add(
    fit: *mut mm_probcut,
    pair: *const mm_probcut_pair,
) -> mm_status {
    status_call(|| {
        let fit = non_null(fit)?;
        let pair = non_null(pair.cast_mut())?;
        // SAFETY: readable (caller's guarantee); every bit pattern is a valid pair.
        let p = unsafe { pair.read() };
        let pair = ProbCutPair {
            stage: p.stage,
            deep: p.deep,
            shallow: p.shallow,
            a: p.a,
            b: p.b,
            sigma: p.sigma,
            samples: p.samples,
        };
        // SAFETY: a live fit no one else is using (caller's guarantee).
        unsafe { &mut (*fit).fit }.add(pair)?;
        Ok(())
    })
}

/// Writes the fit's pairs to `pairs[0 .. *count]`, by stage, deep then shallow depth.
/// `*count` always receives how many there are; if `pairs` is NULL or `cap` is smaller,
/// returns `MM_ERR_BUFFER_TOO_SMALL` and writes no pair.
///
/// # Safety
/// `fit` must be a live fit; `pairs` (if not NULL) must have `cap` writable entries;
/// `count` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_probcut_pairs(
    fit: *const mm_probcut,
    pairs: *mut mm_probcut_pair,
    cap: usize,
    count: *mut usize,
) -> mm_status {
    status_call(|| {
        // SAFETY: a live fit or NULL (caller's guarantee).
        let fit = unsafe { borrow(fit) }?;
        let count = non_null(count)?;
        let have = fit.pairs();
        // SAFETY: non-NULL and writable (caller's guarantee).
        unsafe { count.write(have.len()) };
        if pairs.is_null() || cap < have.len() {
            return Err(MM_ERR_BUFFER_TOO_SMALL);
        }
        for (i, p) in have.iter().enumerate() {
            // SAFETY: `pairs` has `cap > i` writable entries (caller's guarantee).
            unsafe { pairs.add(i).write(p.into()) };
        }
        Ok(())
    })
}

/// The fit's confidence `t`, in `*t`: how many sigmas past the window a shallow search's
/// bound is put (more cuts less, and less wrongly).
///
/// # Safety
/// `fit` must be a live fit; `t` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_probcut_confidence(fit: *const mm_probcut, t: *mut f64) -> mm_status {
    status_call(|| {
        // SAFETY: a live fit or NULL (caller's guarantee).
        let fit = unsafe { borrow(fit) }?;
        let t = non_null(t)?;
        // SAFETY: non-NULL and writable (caller's guarantee).
        unsafe { t.write(fit.t()) };
        Ok(())
    })
}

/// Sets the fit's confidence `t` (a calibration sets 1.5): finite and at least 0, else
/// `MM_ERR_PROBCUT_BAD_CONFIDENCE` and the fit is unchanged.
///
/// # Safety
/// `fit` must be a live fit that no search is reading.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_probcut_set_confidence(fit: *mut mm_probcut, t: f64) -> mm_status {
    status_call(|| {
        let fit = non_null(fit)?;
        // SAFETY: a live fit no one else is using (caller's guarantee).
        unsafe { &mut (*fit).fit }
            .set_t(t)
            .map_err(|_| MM_ERR_PROBCUT_BAD_CONFIDENCE)
    })
}

/// Writes the fit as text into `buf` (NUL-terminated), which `mm_probcut_parse` reads
/// back exactly: the line `libminimax probcut 1`, then `t T`, then a line
/// `pair STAGE DEEP SHALLOW A B SIGMA SAMPLES` for each pair. `*needed` always receives
/// the bytes needed, NUL included; if `buf` is NULL or `cap` is smaller, returns
/// `MM_ERR_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `fit` must be a live fit; `buf` (if not NULL) must have `cap` writable bytes;
/// `needed` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_probcut_print(
    fit: *const mm_probcut,
    buf: *mut c_char,
    cap: usize,
    needed: *mut usize,
) -> mm_status {
    status_call(|| {
        // SAFETY: a live fit or NULL, and the buffers (caller's guarantee).
        unsafe { write_text(&borrow(fit)?.to_text(), buf, cap, needed) }
    })
}

/// Reads `len` bytes of text written by `mm_probcut_print` into a new fit (blank lines
/// and lines starting `#` are skipped). On success writes the handle to `*out`. On text
/// that is not a fit returns `MM_ERR_PARSE_PROBCUT` and, if `error` is not NULL, fills
/// it with the line (column 0) and what was wrong; `*out` is untouched.
///
/// # Safety
/// `text` must hold `len` readable bytes; `out` and `error` (if not NULL) must be
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_probcut_parse(
    text: *const c_char,
    len: usize,
    out: *mut *mut mm_probcut,
    error: *mut mm_parse_error,
) -> mm_status {
    status_call(|| {
        non_null(out)?;
        // SAFETY: the caller guarantees `len` readable bytes at `text`.
        let bytes = unsafe { slice(text.cast::<u8>(), len)? };
        let parsed = match std::str::from_utf8(bytes) {
            Ok(s) => ProbCut::from_text(s),
            Err(e) => Err(ProbCutError::Parse {
                line: 1 + bytes[..e.valid_up_to()]
                    .iter()
                    .filter(|&&b| b == b'\n')
                    .count(),
                reason: "the text is not UTF-8",
            }),
        };
        match parsed {
            Ok(fit) => {
                // SAFETY: `out` is writable (caller's guarantee).
                unsafe { give(fit, out) }
            }
            Err(e) => {
                if !error.is_null() {
                    let line = match e {
                        ProbCutError::Parse { line, .. } => line,
                        _ => 0,
                    };
                    let where_ = mm_parse_error::new(line, 0, &e.to_string());
                    // SAFETY: `error` is non-NULL and the caller guarantees it is writable.
                    unsafe { error.write(where_) };
                }
                Err(MM_ERR_PARSE_PROBCUT)
            }
        }
    })
}

/// Frees a fit. NULL is allowed and does nothing.
///
/// # Safety
/// `fit` must be NULL or a fit not yet freed, that no search is reading.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_probcut_free(fit: *mut mm_probcut) {
    let _ = status_call(|| {
        if !fit.is_null() {
            // SAFETY: from `give`'s global allocation of an `mm_probcut`, not yet freed
            // (caller's guarantee).
            drop(unsafe { Box::from_raw(fit) });
        }
        Ok(())
    });
}
