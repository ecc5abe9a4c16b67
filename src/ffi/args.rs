//! The argument helpers every exported function uses: slices from pointer and length,
//! NULL checks, optional line buffers, and text written into a caller's buffer.

use std::ffi::c_char;

use super::status::mm_status::{self, *};

/// Borrows `len` values at `ptr`. A NULL pointer is an error unless `len` is 0.
///
/// # Safety
/// If not NULL, `ptr` must point to `len` readable values that outlive `'a`.
pub(crate) unsafe fn slice<'a, T>(ptr: *const T, len: usize) -> Result<&'a [T], mm_status> {
    if len == 0 {
        return Ok(&[]);
    }
    if ptr.is_null() {
        return Err(MM_ERR_NULL_ARGUMENT);
    }
    if len > isize::MAX as usize / size_of::<T>().max(1) {
        return Err(MM_ERR_TOO_MANY_LEAVES);
    }
    // SAFETY: non-NULL (checked), `len * size_of::<T>()` fits in isize (checked), and the
    // caller guarantees `len` readable values.
    Ok(unsafe { std::slice::from_raw_parts(ptr, len) })
}

/// A required pointer: NULL becomes `MM_ERR_NULL_ARGUMENT`.
pub(crate) fn non_null<T>(ptr: *mut T) -> Result<*mut T, mm_status> {
    if ptr.is_null() {
        Err(MM_ERR_NULL_ARGUMENT)
    } else {
        Ok(ptr)
    }
}

/// An optional buffer for a line of up to `height` entries: NULL (not wanted), or room
/// for `height`, else `MM_ERR_BUFFER_TOO_SMALL`. Checked before any work, so that an
/// error leaves every output untouched.
pub(crate) fn check_line_room<T>(line: *mut T, cap: usize, height: usize) -> Result<(), mm_status> {
    if !line.is_null() && cap < height {
        return Err(MM_ERR_BUFFER_TOO_SMALL);
    }
    Ok(())
}

/// Copies `values` into `line`, unless it is NULL.
///
/// # Safety
/// `line`, if not NULL, must have at least `values.len()` writable entries (as
/// `check_line_room` makes sure for a line no longer than the height it was given).
pub(crate) unsafe fn write_line<T: Copy>(line: *mut T, values: &[T]) {
    if !line.is_null() {
        // SAFETY: room for `values.len()` entries (caller's guarantee); `values` is ours,
        // so it cannot overlap the caller's buffer.
        unsafe { std::ptr::copy_nonoverlapping(values.as_ptr(), line, values.len()) };
    }
}

/// Writes `text` and a NUL into `buf` if it fits in `cap` bytes; always reports the bytes
/// needed (NUL included) in `*needed`, which must not be NULL.
///
/// # Safety
/// `needed` must be writable if not NULL; `buf`, if not NULL, must have `cap` writable bytes.
pub(crate) unsafe fn write_text(
    text: &str,
    buf: *mut c_char,
    cap: usize,
    needed: *mut usize,
) -> Result<(), mm_status> {
    let needed = non_null(needed)?;
    let size = text.len() + 1;
    // SAFETY: `needed` is non-NULL and the caller guarantees it is writable.
    unsafe { needed.write(size) };
    if buf.is_null() || cap < size {
        return Err(MM_ERR_BUFFER_TOO_SMALL);
    }
    // SAFETY: `buf` has `cap >= size` writable bytes (caller's guarantee, checked size);
    // the source is `text`, which cannot overlap a buffer the caller owns.
    unsafe {
        std::ptr::copy_nonoverlapping(text.as_ptr(), buf.cast::<u8>(), text.len());
        buf.add(text.len()).write(0);
    }
    Ok(())
}

/// The most bytes a newer version of a struct may have past ours: a `struct_size` above
/// that is garbage (a struct never initialised), refused without reading past our fields.
const NEWER_AT_MOST: usize = 1024;

/// Reads a caller's struct that begins with its `struct_size`, as one of the versions
/// this library knows: `sizes` lists the older versions' sizes, each a prefix of `T`.
/// Fields past the caller's size keep their values from `defaults`; a size above ours is
/// accepted only if it is at most [`NEWER_AT_MOST`] bytes more and the bytes past our
/// fields are all zero (a newer caller that set nothing this version would ignore).
/// Anything else is `MM_ERR_BAD_STRUCT_SIZE`. The bytes at `bools` (the offsets of `T`'s
/// `bool` fields) are read as C does: any non-zero byte is true.
///
/// # Safety
/// `ptr` must be non-NULL, aligned, and point to `struct_size` readable bytes that begin
/// with a `size_t`; each known prefix must hold valid values of its fields but for its
/// `bool`s, which `bools` must list.
pub(crate) unsafe fn read_sized<T: Copy>(
    ptr: *const T,
    mut defaults: T,
    sizes: &[usize],
    bools: &[usize],
) -> Result<T, mm_status> {
    // SAFETY: the struct begins with its size (caller's guarantee).
    let size = unsafe { ptr.cast::<usize>().read() };
    let ours = size_of::<T>();
    let known = if size == ours || sizes.contains(&size) {
        size
    } else if size > ours && size - ours <= NEWER_AT_MOST {
        // SAFETY: the caller's struct has `size > ours` readable bytes.
        let extra = unsafe { std::slice::from_raw_parts(ptr.cast::<u8>().add(ours), size - ours) };
        if extra.iter().any(|&b| b != 0) {
            return Err(MM_ERR_BAD_STRUCT_SIZE);
        }
        ours
    } else {
        return Err(MM_ERR_BAD_STRUCT_SIZE);
    };
    let bytes = (&mut defaults as *mut T).cast::<u8>();
    // SAFETY: `known <= ours` bytes are readable at `ptr` and writable in `defaults`, and
    // they are a whole prefix of fields (a known version's size), valid as the caller's
    // but for the `bool`s; those are made 0 or 1 through the same raw pointer before
    // `defaults` is read as a `T` again.
    unsafe {
        std::ptr::copy_nonoverlapping(ptr.cast::<u8>(), bytes, known);
        for &at in bools.iter().filter(|&&at| at < known) {
            let b = bytes.add(at);
            b.write((b.read() != 0) as u8);
        }
    }
    Ok(defaults)
}

/// Writes `value` into a caller's struct of `size` bytes that begins with its
/// `struct_size`, as the version of that size: `sizes` lists the older versions' sizes,
/// each a prefix of `T`. A size above ours gets all our fields and zeros past them (a
/// newer caller's fields, which `read_sized` then requires to stay zero). The struct's
/// first word is set to `size`. Anything else is `MM_ERR_BAD_STRUCT_SIZE`, and nothing
/// is written.
///
/// # Safety
/// `ptr` must be non-NULL, aligned, and point to `size` writable bytes.
pub(crate) unsafe fn write_sized<T: Copy>(
    ptr: *mut T,
    value: T,
    size: usize,
    sizes: &[usize],
) -> Result<(), mm_status> {
    let ours = size_of::<T>();
    if size < ours && !sizes.contains(&size) {
        return Err(MM_ERR_BAD_STRUCT_SIZE);
    }
    let bytes = ptr.cast::<u8>();
    // SAFETY: the caller's struct has `size` writable bytes; we write `min(size, ours)`
    // bytes of a live value of its type (a whole prefix of fields), zeros up to `size`,
    // then the leading `size_t`, which every version begins with.
    unsafe {
        std::ptr::copy_nonoverlapping((&value as *const T).cast::<u8>(), bytes, size.min(ours));
        if size > ours {
            std::ptr::write_bytes(bytes.add(ours), 0, size - ours);
        }
        ptr.cast::<usize>().write(size);
    }
    Ok(())
}
