//! SplitMix64 (Steele, Lea and Flood 2014, as Vigna describes it): the draws of the
//! examples' games for their own playouts and samples.

#![allow(dead_code)] // each game that shares it uses a part

/// A seeded generator.
pub struct SplitMix(pub u64);

impl SplitMix {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        finish(self.0)
    }
}

/// One step from `z`: a number to draw with, and the next `z` of a chain of draws.
pub fn mix(z: u64) -> u64 {
    finish(z.wrapping_add(0x9E37_79B9_7F4A_7C15))
}

fn finish(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A number in `0..n` from the high half of `r` (Lemire's multiply-shift).
pub fn below(r: u64, n: u32) -> u32 {
    (((r >> 32) * n as u64) >> 32) as u32
}
