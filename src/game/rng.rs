//! A small seeded random generator (xoshiro256++ seeded through SplitMix64), so runs
//! are reproducible everywhere without external packages.

/// Seeded pseudo-random generator. Not for cryptography.
#[derive(Debug, Clone)]
pub struct Rng {
    s: [u64; 4],
}

/// One SplitMix64 step: advances `state` and returns a well-mixed word.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Rng {
    /// A generator fully determined by `seed`.
    /// Pre: none. Post: two generators made from the same seed give the same stream.
    pub fn new(seed: u64) -> Rng {
        let mut st = seed;
        Rng { s: [splitmix(&mut st), splitmix(&mut st), splitmix(&mut st), splitmix(&mut st)] }
    }

    /// The independent stream number `stream` of `seed` (game `i` of a simulation uses
    /// stream `i`, so results do not depend on how games are split among threads).
    /// Pre: none. Post: deterministic in (`seed`, `stream`).
    pub fn for_stream(seed: u64, stream: u64) -> Rng {
        let mut st = seed ^ 0x5851_F42D_4C95_7F2D;
        let a = splitmix(&mut st);
        let mut st2 = stream.wrapping_mul(0xD134_2543_DE82_EF95) ^ a;
        Rng::new(splitmix(&mut st2))
    }

    /// The generator's whole state, to be written down and put back with
    /// [`Rng::from_state`] (lookahead's opening book keeps where its stream stood).
    /// Pre: none. Post: no change.
    pub fn state(&self) -> [u64; 4] {
        self.s
    }

    /// The generator whose state is `s`, as [`Rng::state`] gave it.
    /// Pre: `s` is a state a generator had (not all zero). Post: the stream that
    /// generator gave from there.
    pub fn from_state(s: [u64; 4]) -> Rng {
        Rng { s }
    }

    /// The next 64 random bits.
    /// Pre: none. Post: advances the state.
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let result = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// A uniform integer in `0..n` (Lemire's method, no modulo bias).
    /// Pre: none. Post: `result < n`, or 0 when `n == 0`.
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        let mut m = (self.next_u64() as u128) * (n as u128);
        if (m as u64) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u64) < threshold {
                m = (self.next_u64() as u128) * (n as u128);
            }
        }
        (m >> 64) as u64
    }

    /// A uniform float in `[0, 1)`.
    /// Pre: none. Post: `0.0 <= result < 1.0`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream() {
        let mut a = Rng::new(42);
        let mut b = Rng::new(42);
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
        assert_ne!(Rng::new(1).next_u64(), Rng::new(2).next_u64());
        assert_ne!(Rng::for_stream(1, 0).next_u64(), Rng::for_stream(1, 1).next_u64());
    }

    #[test]
    fn below_is_in_range_and_roughly_uniform() {
        let mut r = Rng::new(3);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            let v = r.below(6) as usize;
            counts[v] += 1;
        }
        for c in counts {
            assert!((9_000..11_000).contains(&c), "{counts:?}");
        }
        assert_eq!(r.below(0), 0);
        assert_eq!(r.below(1), 0);
    }

    #[test]
    fn unit_is_in_range() {
        let mut r = Rng::new(9);
        for _ in 0..1000 {
            let u = r.unit();
            assert!((0.0..1.0).contains(&u));
        }
    }
}
