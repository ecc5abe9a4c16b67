//! The leaves the textbook functions take: a buffer of C ints (an int32 numpy array, an
//! `array('i')`), read in place; anything else iterable, copied with each value checked.
//!
//! The buffer protocol entered the limited API in Python 3.11, and the wheel is built for
//! 3.9's, so its two functions and `Py_buffer` are declared here as the C API documents
//! them; CPython has exported both, with this layout, since 3.3.

use std::ffi::{CStr, c_char, c_int, c_void};

use pyo3::exceptions::PyMemoryError;
use pyo3::ffi::{Py_ssize_t, PyObject};
use pyo3::prelude::*;

/// `Py_buffer`, as the C API documents it.
#[repr(C)]
pub struct PyBuffer {
    buf: *mut c_void,
    obj: *mut PyObject,
    len: Py_ssize_t,
    itemsize: Py_ssize_t,
    readonly: c_int,
    ndim: c_int,
    format: *mut c_char,
    shape: *mut Py_ssize_t,
    strides: *mut Py_ssize_t,
    suboffsets: *mut Py_ssize_t,
    internal: *mut c_void,
}

unsafe extern "C" {
    fn PyObject_GetBuffer(obj: *mut PyObject, view: *mut PyBuffer, flags: c_int) -> c_int;
    fn PyBuffer_Release(view: *mut PyBuffer);
}

/// `PyBUF_C_CONTIGUOUS | PyBUF_FORMAT`: a C-contiguous buffer, with its format.
const C_CONTIGUOUS_WITH_FORMAT: c_int = 0x0038 | 0x0004;

/// Leaf scores, borrowed from a buffer or copied.
pub enum Leaves {
    /// A C-contiguous buffer of 4-byte native ints, held until drop.
    Borrowed(Box<PyBuffer>),
    /// The values of any other iterable of ints.
    Copied(Vec<i32>),
}

impl Leaves {
    /// Reads `obj`'s leaves: in place where it is a contiguous buffer of C ints.
    pub fn read(obj: &Bound<'_, PyAny>) -> PyResult<Leaves> {
        if let Some(view) = int_buffer(obj) {
            return Ok(Leaves::Borrowed(view));
        }
        let mut values = Vec::new();
        if let Ok(n) = obj.len() {
            values
                .try_reserve_exact(n)
                .map_err(|_| PyMemoryError::new_err(format!("no memory for {n} leaves")))?;
        }
        for item in obj.try_iter()? {
            values
                .try_reserve(1)
                .map_err(|_| PyMemoryError::new_err("no memory for the leaves"))?;
            values.push(item?.extract::<i32>()?);
        }
        Ok(Leaves::Copied(values))
    }

    pub fn as_slice(&self) -> &[i32] {
        match self {
            Leaves::Borrowed(view) => {
                let n = view.len as usize / 4;
                if n == 0 {
                    return &[];
                }
                // SAFETY: `int_buffer` accepted the view only when it is C-contiguous,
                // holds 4-byte native ints (format `i`, or `l` of 4 bytes) and is aligned
                // for them, so `buf` points to `len / 4` readable ints. The view holds
                // its exporter (its `obj`) until drop, and the functions that read the
                // slice keep the GIL and run no Python code meanwhile, so no Python code
                // changes the buffer while the slice is borrowed.
                unsafe { std::slice::from_raw_parts(view.buf as *const i32, n) }
            }
            Leaves::Copied(values) => values,
        }
    }
}

impl Drop for Leaves {
    fn drop(&mut self) {
        if let Leaves::Borrowed(view) = self {
            // SAFETY: the view was filled by a successful `PyObject_GetBuffer` and is
            // released once, here; the GIL is held, since `Leaves` is made and dropped
            // inside a function called from Python (it is not `Send`).
            unsafe { PyBuffer_Release(&mut **view) };
        }
    }
}

/// `obj`'s buffer if it is a C-contiguous buffer of 4-byte native ints, else `None` (and
/// no error set: the caller then iterates over it).
fn int_buffer(obj: &Bound<'_, PyAny>) -> Option<Box<PyBuffer>> {
    if obj.is_instance_of::<pyo3::types::PyList>() || obj.is_instance_of::<pyo3::types::PyTuple>() {
        return None;
    }
    let mut view = Box::new(PyBuffer {
        buf: std::ptr::null_mut(),
        obj: std::ptr::null_mut(),
        len: 0,
        itemsize: 0,
        readonly: 0,
        ndim: 0,
        format: std::ptr::null_mut(),
        shape: std::ptr::null_mut(),
        strides: std::ptr::null_mut(),
        suboffsets: std::ptr::null_mut(),
        internal: std::ptr::null_mut(),
    });
    // SAFETY: `obj` is a live object (the GIL is held) and `view` a writable `Py_buffer`.
    if unsafe { PyObject_GetBuffer(obj.as_ptr(), &mut *view, C_CONTIGUOUS_WITH_FORMAT) } != 0 {
        // Not a buffer, or not a contiguous one: iterated instead.
        drop(PyErr::take(obj.py()));
        return None;
    }
    // SAFETY: with PyBUF_FORMAT the exporter sets `format` to a NUL-terminated string or
    // NULL (which means unsigned bytes).
    let format = (!view.format.is_null()).then(|| unsafe { CStr::from_ptr(view.format) });
    let native_int = matches!(
        format.map(CStr::to_bytes),
        Some(b"i" | b"@i" | b"=i" | b"l" | b"@l" | b"=l")
    );
    let aligned = (view.buf as usize) % std::mem::align_of::<i32>() == 0;
    if native_int && view.itemsize == 4 && aligned && view.len % 4 == 0 {
        Some(view)
    } else {
        // SAFETY: filled by the successful call above; released once, here.
        unsafe { PyBuffer_Release(&mut *view) };
        None
    }
}
