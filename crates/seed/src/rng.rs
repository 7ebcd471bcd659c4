//! A small, frozen pseudo-random number generator: SplitMix64 to seed, xoshiro256** to draw.
//!
//! Both algorithms are public-domain reference designs (Vigna, Blackman). They are written out
//! here, not taken from a crate, so the catalogue for a given seed never changes with a
//! dependency upgrade. Only integer operations and IEEE basic arithmetic are used, so the
//! output is identical on every platform.

/// Independent streams, one per concern, so that changing how many draws one table makes
/// leaves the other tables as they were.
pub(crate) mod stream {
    pub const ORGANISATIONS: u64 = 1;
    pub const LOCATIONS: u64 = 2;
    pub const CLINICIANS: u64 = 3;
    pub const EMPLOYERS: u64 = 4;
    pub const MARKETPLACE: u64 = 5;
    pub const ROSTER: u64 = 6;
    pub const IDENTIFIERS: u64 = 7;
    pub const LISTINGS: u64 = 8;
    pub const DIRECTORY: u64 = 9;
}

/// SplitMix64: a 64-bit counter run through a strong mixing function.
#[derive(Debug, Clone)]
pub(crate) struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub(crate) fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// xoshiro256**: the generator every table draws from.
#[derive(Debug, Clone)]
pub(crate) struct Rng {
    state: [u64; 4],
}

impl Rng {
    /// Returns the generator for one stream of one seed.
    pub(crate) fn new(seed: u64, stream: u64) -> Self {
        let mut mixer = SplitMix64::new(seed ^ stream.wrapping_mul(0xD1B5_4A32_D192_ED03));
        let state = [mixer.next_u64(), mixer.next_u64(), mixer.next_u64(), mixer.next_u64()];
        // SplitMix64 never yields four zero words in a row, so the state is never all zero.
        Self { state }
    }

    #[cfg(test)]
    pub(crate) fn from_state(state: [u64; 4]) -> Self {
        Self { state }
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        let [s0, s1, s2, s3] = &mut self.state;
        let result = s1.wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = *s1 << 17;
        *s2 ^= *s0;
        *s3 ^= *s1;
        *s1 ^= *s2;
        *s0 ^= *s3;
        *s2 ^= t;
        *s3 = s3.rotate_left(45);
        result
    }

    /// Returns a uniform integer in `0..n` (multiply-shift; the bias is below 2^-40 for the
    /// sizes used here). `n` must be positive.
    pub(crate) fn below(&mut self, n: usize) -> usize {
        debug_assert!(n > 0);
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// Returns a uniform integer in `low..=high`.
    pub(crate) fn between(&mut self, low: u32, high: u32) -> u32 {
        low + self.below((high - low) as usize + 1) as u32
    }

    /// Returns a uniform float in `[0, 1)` with 53 random bits.
    pub(crate) fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Returns true with probability `p`.
    pub(crate) fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    pub(crate) fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// A discrete distribution sampled by binary search over cumulative weights.
#[derive(Debug, Clone)]
pub(crate) struct Weighted {
    cumulative: Vec<f64>,
}

impl Weighted {
    pub(crate) fn new(weights: impl IntoIterator<Item = f64>) -> Self {
        let mut total = 0.0;
        let cumulative = weights
            .into_iter()
            .map(|weight| {
                total += weight.max(0.0);
                total
            })
            .collect();
        Self { cumulative }
    }

    pub(crate) fn len(&self) -> usize {
        self.cumulative.len()
    }

    /// Returns an index drawn with probability proportional to its weight.
    pub(crate) fn sample(&self, rng: &mut Rng) -> usize {
        let total = self.cumulative.last().copied().unwrap_or(0.0);
        let target = rng.unit() * total;
        self.cumulative
            .partition_point(|&sum| sum <= target)
            .min(self.cumulative.len() - 1)
    }
}

/// A keyed bijection of `0..limit` onto itself that looks random: a few invertible mixing
/// steps on the smallest power-of-two domain holding `limit`, with cycle walking to stay
/// below `limit`. Used to hand out identifiers that are distinct by construction.
#[derive(Debug, Clone)]
pub(crate) struct Permutation {
    mask: u64,
    shift: u32,
    limit: u64,
    keys: [u64; 4],
}

impl Permutation {
    pub(crate) fn new(limit: u64, rng: &mut Rng) -> Self {
        assert!(limit > 1, "a permutation needs at least two values");
        let bits = 64 - (limit - 1).leading_zeros();
        let mask = if bits == 64 { u64::MAX } else { (1 << bits) - 1 };
        // Odd multipliers are invertible modulo a power of two.
        let keys = [
            rng.next_u64() & mask,
            rng.next_u64() | 1,
            rng.next_u64() & mask,
            rng.next_u64() | 1,
        ];
        Self {
            mask,
            shift: bits.div_ceil(2),
            limit,
            keys,
        }
    }

    fn mix(&self, mut x: u64) -> u64 {
        for round in 0..2 {
            x = (x ^ self.keys[2 * round]) & self.mask;
            x = x.wrapping_mul(self.keys[2 * round + 1]) & self.mask;
            x ^= x >> self.shift;
        }
        x
    }

    /// Returns the image of `index` (which must be below the limit).
    pub(crate) fn apply(&self, index: u64) -> u64 {
        debug_assert!(index < self.limit);
        let mut x = self.mix(index);
        while x >= self.limit {
            x = self.mix(x);
        }
        x
    }
}

/// Picks from a small table of `(value, integer weight)` pairs.
pub(crate) fn pick_weighted<T: Copy>(rng: &mut Rng, table: &[(T, u32)]) -> T {
    let total: u32 = table.iter().map(|(_, weight)| weight).sum();
    let mut target = rng.below(total as usize) as u32;
    for &(value, weight) in table {
        if target < weight {
            return value;
        }
        target -= weight;
    }
    table[table.len() - 1].0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_matches_the_reference_sequence() {
        let mut mixer = SplitMix64::new(0);
        assert_eq!(mixer.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(mixer.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn xoshiro256_star_star_matches_the_reference_sequence() {
        let mut rng = Rng::from_state([1, 2, 3, 4]);
        let outputs: Vec<u64> = (0..4).map(|_| rng.next_u64()).collect();
        assert_eq!(outputs, [11520, 0, 1509978240, 1215971899390074240]);
    }

    #[test]
    fn streams_of_one_seed_differ() {
        let a = Rng::new(1, stream::LOCATIONS).next_u64();
        let b = Rng::new(1, stream::CLINICIANS).next_u64();
        let c = Rng::new(2, stream::LOCATIONS).next_u64();
        assert!(a != b && a != c && b != c);
    }

    #[test]
    fn permutations_are_bijections() {
        for limit in [2, 10, 1000, 4096, 5000] {
            let permutation = Permutation::new(limit, &mut Rng::new(limit, 1));
            let mut images: Vec<u64> = (0..limit).map(|index| permutation.apply(index)).collect();
            images.sort_unstable();
            assert!(
                images.iter().enumerate().all(|(index, image)| *image == index as u64),
                "{limit}"
            );
        }
    }

    #[test]
    fn weighted_sampling_follows_the_weights() {
        let table = Weighted::new([1.0, 0.0, 3.0]);
        let mut rng = Rng::new(7, 0);
        let mut counts = [0usize; 3];
        for _ in 0..40_000 {
            counts[table.sample(&mut rng)] += 1;
        }
        assert_eq!(counts[1], 0);
        let share = counts[2] as f64 / 40_000.0;
        assert!((share - 0.75).abs() < 0.02, "{share}");
    }
}
