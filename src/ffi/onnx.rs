//! ONNX models from C (the `onnx` feature): `mm_onnx`, loaded from a file or a buffer
//! and checked once, then handed to `mm_batched_search` as an `mm_evaluator` that the
//! library fills, so that no inference code is the program's own.

use std::ffi::{CStr, c_char, c_int, c_void};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;

use super::args::non_null;
use super::batched::{mm_encoding, mm_evaluator};
use super::boundary::status_call;
use super::status::mm_status::{self, *};
use crate::search::batched::{Evaluator, OnnxError, OnnxEvaluator};

/// A loaded ONNX model (opaque): one float input `[batch, observation_size]`, outputs
/// `value` `[batch]` or `[batch, 1]` and `logits` `[batch, action_count]`.
pub struct mm_onnx {
    /// Locked by each batch: one search evaluates with a model at a time.
    model: Mutex<OnnxEvaluator>,
    /// The model's sizes, copied out so that they are read without waiting for a search.
    observation_size: usize,
    action_count: usize,
}

/// The status of a load's error.
fn status_of(e: &OnnxError) -> mm_status {
    match e {
        OnnxError::Io(_) => MM_ERR_ONNX_IO,
        OnnxError::NotAModel(_) => MM_ERR_ONNX_NOT_A_MODEL,
        OnnxError::BadInput(_) => MM_ERR_ONNX_BAD_INPUT,
        OnnxError::BadOutput(_) => MM_ERR_ONNX_BAD_OUTPUT,
        OnnxError::WrongGame(_) => MM_ERR_ONNX_WRONG_GAME,
    }
}

/// Writes `message`, cut to `cap - 1` bytes and NUL-terminated, to `why` if it is not
/// NULL and `cap` is not 0.
///
/// # Safety
/// `why`, if not NULL, must have `cap` writable bytes.
unsafe fn tell(why: *mut c_char, cap: usize, message: &str) {
    if why.is_null() || cap == 0 {
        return;
    }
    let n = message.len().min(cap - 1);
    // SAFETY: `why` has `cap > n` writable bytes (caller's guarantee).
    unsafe {
        std::ptr::copy_nonoverlapping(message.as_ptr().cast::<c_char>(), why, n);
        why.add(n).write(0);
    }
}

/// Boxes a loaded model into `*out`, or reports its error.
///
/// # Safety
/// `out` must be writable; `why`, if not NULL, must have `cap` writable bytes.
unsafe fn finish(
    loaded: Result<OnnxEvaluator, OnnxError>,
    out: *mut *mut mm_onnx,
    why: *mut c_char,
    cap: usize,
) -> Result<(), mm_status> {
    match loaded {
        Ok(model) => {
            let boxed = mm_onnx {
                observation_size: model.observation_size(),
                action_count: model.action_count(),
                model: Mutex::new(model),
            };
            // SAFETY: writable (caller's guarantee).
            unsafe { out.write(Box::into_raw(Box::new(boxed))) };
            Ok(())
        }
        Err(e) => {
            // SAFETY: `why` as the caller's guarantee.
            unsafe { tell(why, cap, &e.to_string()) };
            Err(status_of(&e))
        }
    }
}

/// Loads the ONNX model in the file at `path` (NUL-terminated) and checks its contract;
/// on `MM_OK` writes the model to `*out`. A file that cannot be read is
/// `MM_ERR_ONNX_IO`; bytes that are not a model tract can run, `MM_ERR_ONNX_NOT_A_MODEL`;
/// an input or an output that does not fit, `MM_ERR_ONNX_BAD_INPUT` or
/// `MM_ERR_ONNX_BAD_OUTPUT`. On an error, if `why` is not NULL, up to `cap` bytes
/// (NUL-terminated) of a message naming what was wrong are written there.
///
/// # Safety
/// `path` must be a NUL-terminated string; `out` writable; `why`, if not NULL, must have
/// `cap` writable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_onnx_load(
    path: *const c_char,
    out: *mut *mut mm_onnx,
    why: *mut c_char,
    cap: usize,
) -> mm_status {
    status_call(|| {
        let path = non_null(path.cast_mut())?;
        let out = non_null(out)?;
        // SAFETY: a NUL-terminated string (caller's guarantee).
        let path = unsafe { CStr::from_ptr(path) };
        #[cfg(unix)]
        let loaded = {
            use std::os::unix::ffi::OsStrExt;
            OnnxEvaluator::from_path(std::ffi::OsStr::from_bytes(path.to_bytes()))
        };
        #[cfg(not(unix))]
        let loaded = match path.to_str() {
            Ok(p) => OnnxEvaluator::from_path(p),
            Err(_) => Err(OnnxError::Io(format!("the path {path:?} is not UTF-8"))),
        };
        // SAFETY: `out` and `why` as the caller's guarantee.
        unsafe { finish(loaded, out, why, cap) }
    })
}

/// Loads an ONNX model from the `len` bytes at `bytes` (a model file's contents), as
/// `mm_onnx_load` does.
///
/// # Safety
/// `bytes` must hold `len` readable bytes; `out` writable; `why`, if not NULL, must have
/// `cap` writable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_onnx_load_buffer(
    bytes: *const u8,
    len: usize,
    out: *mut *mut mm_onnx,
    why: *mut c_char,
    cap: usize,
) -> mm_status {
    status_call(|| {
        let bytes = non_null(bytes.cast_mut())?;
        let out = non_null(out)?;
        // SAFETY: `len` readable bytes (caller's guarantee).
        let bytes = unsafe { std::slice::from_raw_parts(bytes, len) };
        // SAFETY: `out` and `why` as the caller's guarantee.
        unsafe { finish(OnnxEvaluator::from_bytes(bytes), out, why, cap) }
    })
}

/// Writes the model's observation size and logits a position to `*observation_size`
/// and `*action_count`.
///
/// # Safety
/// `model` must be a live model from `mm_onnx_load`; both outputs writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_onnx_sizes(
    model: *const mm_onnx,
    observation_size: *mut usize,
    action_count: *mut usize,
) -> mm_status {
    status_call(|| {
        let model = non_null(model.cast_mut())?;
        let (obs, actions) = (non_null(observation_size)?, non_null(action_count)?);
        // SAFETY: a live model and writable outputs (caller's guarantee).
        unsafe {
            obs.write((*model).observation_size);
            actions.write((*model).action_count);
        }
        Ok(())
    })
}

/// Fills `evaluator` (from `mm_evaluator_init`) with the model: `mm_batched_search`
/// then evaluates its batches with it, on the calling thread. A model whose sizes are not
/// the encoding's is `MM_ERR_ONNX_WRONG_GAME` (and `evaluator` is untouched). The model
/// must outlive the searches that use it, and serves one at a time (a second one at once
/// fails with `MM_ERR_EVALUATOR_FAILED`).
///
/// # Safety
/// `model` must be a live model; `encoding` and `evaluator` valid structs from their init
/// functions.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_onnx_evaluator(
    model: *mut mm_onnx,
    encoding: *const mm_encoding,
    evaluator: *mut mm_evaluator,
) -> mm_status {
    status_call(|| {
        let model = non_null(model)?;
        let encoding = non_null(encoding.cast_mut())?;
        let evaluator = non_null(evaluator)?;
        // SAFETY: valid structs from their init functions (caller's guarantee).
        let (encoding, mut filled) = unsafe {
            (
                super::args::read_sized(encoding, mm_encoding::default(), &[], &[])?,
                super::args::read_sized(evaluator, mm_evaluator::default(), &[], &[])?,
            )
        };
        // SAFETY: a live model (caller's guarantee).
        let (obs, actions) = unsafe { ((*model).observation_size, (*model).action_count) };
        if (encoding.observation_size, encoding.action_count) != (obs, actions) {
            return Err(MM_ERR_ONNX_WRONG_GAME);
        }
        filled.context = model.cast::<c_void>();
        filled.evaluate = Some(evaluate);
        // SAFETY: the caller's struct, of the size it was initialised with.
        unsafe {
            let size = evaluator.cast::<usize>().read();
            super::args::write_sized(evaluator, filled, size, &[])
        }
    })
}

/// The evaluator's callback: one batch through the model. Nothing unwinds out of it.
unsafe extern "C" fn evaluate(
    context: *mut c_void,
    observations: *const f32,
    batch: usize,
    values: *mut f32,
    logits: *mut f32,
) -> c_int {
    let run = || {
        // SAFETY: `context` is the live model `mm_onnx_evaluator` put there; the search
        // passes `batch` observations, values and logits rows of the encoding's sizes,
        // which are the model's (checked there).
        let model = unsafe { &*context.cast::<mm_onnx>() };
        let Ok(mut e) = model.model.try_lock() else {
            return 1; // another search is evaluating with this model
        };
        let (obs, acts) = (model.observation_size, model.action_count);
        // SAFETY: as above.
        let (o, v, l) = unsafe {
            (
                std::slice::from_raw_parts(observations, batch * obs),
                std::slice::from_raw_parts_mut(values, batch),
                std::slice::from_raw_parts_mut(logits, batch * acts),
            )
        };
        c_int::from(e.evaluate(o, v, l).is_err())
    };
    catch_unwind(AssertUnwindSafe(run)).unwrap_or(1)
}

/// Frees a model from `mm_onnx_load`; NULL is ignored.
///
/// # Safety
/// `model` must be NULL or a live model, used by no search now or later.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_onnx_free(model: *mut mm_onnx) {
    if model.is_null() {
        return;
    }
    let _ = catch_unwind(|| {
        // SAFETY: a live model from `mm_onnx_load`, not used again (caller's guarantee).
        drop(unsafe { Box::from_raw(model) });
    });
}
