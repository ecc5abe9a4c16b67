//! The playouts' generator the Hex game and treant's evaluator share.

/// A small generator for treant's playouts (xorshift64*, Vigna's description).
pub struct Xorshift(pub u64);

impl Xorshift {
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (((self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 32) * n as u64) >> 32) as usize
    }
}
