//! A fixed-size bitset over location ordinals: every filter becomes one, and a query ANDs them.

/// A set of ordinals in `0..len`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bitset {
    words: Vec<u64>,
    len: usize,
}

impl Bitset {
    pub fn empty(len: usize) -> Self {
        Self {
            words: vec![0; len.div_ceil(64)],
            len,
        }
    }

    pub fn full(len: usize) -> Self {
        let mut set = Self {
            words: vec![u64::MAX; len.div_ceil(64)],
            len,
        };
        set.clear_tail();
        set
    }

    pub fn from_fn(len: usize, mut contains: impl FnMut(usize) -> bool) -> Self {
        Self::from_ordinals(len, (0..len).filter(|ordinal| contains(*ordinal)))
    }

    pub fn from_ordinals(len: usize, ordinals: impl IntoIterator<Item = usize>) -> Self {
        let mut set = Self::empty(len);
        for ordinal in ordinals {
            set.insert(ordinal);
        }
        set
    }

    fn clear_tail(&mut self) {
        let used_bits = self.len % 64;
        if used_bits != 0
            && let Some(last) = self.words.last_mut()
        {
            *last &= (1u64 << used_bits) - 1;
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn insert(&mut self, ordinal: usize) {
        self.words[ordinal / 64] |= 1 << (ordinal % 64);
    }

    #[inline]
    pub fn remove(&mut self, ordinal: usize) {
        self.words[ordinal / 64] &= !(1 << (ordinal % 64));
    }

    pub fn set(&mut self, ordinal: usize, value: bool) {
        if value {
            self.insert(ordinal)
        } else {
            self.remove(ordinal)
        }
    }

    /// The 64 members' bits from ordinal `64 * index`; bits past the set's length are 0.
    #[inline]
    pub fn word(&self, index: usize) -> u64 {
        self.words[index]
    }

    #[inline]
    pub fn contains(&self, ordinal: usize) -> bool {
        self.words
            .get(ordinal / 64)
            .is_some_and(|word| word & (1 << (ordinal % 64)) != 0)
    }

    pub fn intersect_with(&mut self, other: &Self) {
        for (word, other_word) in self.words.iter_mut().zip(&other.words) {
            *word &= other_word;
        }
    }

    /// Removes every member of `other`.
    pub fn difference_with(&mut self, other: &Self) {
        for (word, other) in self.words.iter_mut().zip(&other.words) {
            *word &= !other;
        }
    }

    pub fn union_with(&mut self, other: &Self) {
        for (word, other_word) in self.words.iter_mut().zip(&other.words) {
            *word |= other_word;
        }
    }

    pub fn count(&self) -> usize {
        self.words.iter().map(|word| word.count_ones() as usize).sum()
    }

    /// Counts members in `start..end`.
    pub fn count_range(&self, start: usize, end: usize) -> usize {
        if start >= end {
            return 0;
        }
        let (first_word, last_word) = (start / 64, (end - 1) / 64);
        let low_mask = u64::MAX << (start % 64);
        let high_mask = u64::MAX >> (63 - (end - 1) % 64);
        if first_word == last_word {
            return (self.words[first_word] & low_mask & high_mask).count_ones() as usize;
        }
        let middle: usize = self.words[first_word + 1..last_word]
            .iter()
            .map(|word| word.count_ones() as usize)
            .sum();
        middle
            + (self.words[first_word] & low_mask).count_ones() as usize
            + (self.words[last_word] & high_mask).count_ones() as usize
    }

    /// Counts members of both sets in `start..end`.
    pub fn count_range_and(&self, other: &Self, start: usize, end: usize) -> usize {
        if start >= end {
            return 0;
        }
        let (first_word, last_word) = (start / 64, (end - 1) / 64);
        let low_mask = u64::MAX << (start % 64);
        let high_mask = u64::MAX >> (63 - (end - 1) % 64);
        (first_word..=last_word)
            .map(|position| {
                let mut word = self.words[position] & other.words[position];
                if position == first_word {
                    word &= low_mask;
                }
                if position == last_word {
                    word &= high_mask;
                }
                word.count_ones() as usize
            })
            .sum()
    }

    /// Iterates members in `start..end` in increasing order.
    pub fn iter_range(&self, start: usize, end: usize) -> impl Iterator<Item = usize> + '_ {
        let first_word = start / 64;
        let last_word = end.div_ceil(64).min(self.words.len());
        (first_word..last_word).flat_map(move |position| {
            let mut remaining = self.words[position];
            if position == first_word {
                remaining &= u64::MAX << (start % 64);
            }
            if position * 64 + 64 > end {
                let used = end - position * 64;
                remaining &= if used >= 64 { u64::MAX } else { (1u64 << used) - 1 };
            }
            word_members(position, remaining)
        })
    }

    /// Iterates members in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words
            .iter()
            .enumerate()
            .flat_map(|(position, word)| word_members(position, *word))
    }
}

/// The ordinals of the set bits of `word`, the word at `position`, in increasing order.
fn word_members(position: usize, mut remaining: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if remaining == 0 {
            return None;
        }
        let bit = remaining.trailing_zeros() as usize;
        remaining &= remaining - 1;
        Some(position * 64 + bit)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_counts_agree_with_a_scan() {
        let set = Bitset::from_fn(300, |ordinal| ordinal % 3 == 0 || ordinal % 7 == 0);
        let other = Bitset::from_fn(300, |ordinal| ordinal % 2 == 0);
        for start in [0, 1, 63, 64, 65, 127, 200] {
            for end in [start, start + 1, 64, 128, 129, 299, 300] {
                if end < start {
                    continue;
                }
                let expected = (start..end).filter(|o| set.contains(*o)).count();
                assert_eq!(set.count_range(start, end), expected, "{start}..{end}");
                let both = (start..end).filter(|o| set.contains(*o) && other.contains(*o)).count();
                assert_eq!(set.count_range_and(&other, start, end), both, "{start}..{end}");
            }
        }
        assert_eq!(Bitset::full(130).count(), 130);
        assert_eq!(set.iter().count(), set.count());
        for (start, end) in [(0, 300), (5, 70), (64, 128), (63, 65), (100, 100), (299, 300)] {
            let expected: Vec<usize> = (start..end).filter(|o| set.contains(*o)).collect();
            assert_eq!(
                set.iter_range(start, end).collect::<Vec<_>>(),
                expected,
                "{start}..{end}"
            );
        }
    }
}
