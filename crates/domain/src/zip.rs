//! US ZIP codes.

use std::fmt;

/// A five-digit US ZIP code; ZIP+4 input is accepted and reduced to its first five digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ZipCode([u8; 5]);

impl ZipCode {
    /// Parses `12345` or `12345-6789`, surrounding whitespace allowed.
    pub fn parse(input: &str) -> Option<Self> {
        let input = input.trim();
        let (five, rest) = input.split_at_checked(5)?;
        let plus_four_ok = rest.is_empty()
            || (rest.len() == 5 && rest.starts_with('-') && rest[1..].bytes().all(|b| b.is_ascii_digit()));
        if !plus_four_ok || !five.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let mut digits = [0u8; 5];
        digits.copy_from_slice(five.as_bytes());
        Some(Self(digits))
    }

    /// Finds the first five-digit ZIP in free text such as "1 Main St, Denver, CO 80202".
    pub fn extract(text: &str) -> Option<Self> {
        let bytes = text.as_bytes();
        let is_digit = |i: usize| bytes.get(i).is_some_and(u8::is_ascii_digit);
        (0..bytes.len().saturating_sub(4)).find_map(|start| {
            let standalone = (start == 0 || !is_digit(start - 1)) && !is_digit(start + 5);
            (standalone && (start..start + 5).all(is_digit))
                .then(|| Self::parse(&text[start..start + 5]))
                .flatten()
        })
    }

    pub fn as_str(&self) -> &str {
        // The five bytes are ASCII digits by construction.
        std::str::from_utf8(&self.0).unwrap_or("00000")
    }
}

impl fmt::Display for ZipCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_five_digits_and_zip_plus_four() {
        assert_eq!(ZipCode::parse("80202").unwrap().as_str(), "80202");
        assert_eq!(ZipCode::parse(" 80202-1234 ").unwrap().as_str(), "80202");
    }

    #[test]
    fn refuses_other_shapes() {
        for bad in ["8020", "802021", "80202-12", "8o202", "", "80202 1234"] {
            assert!(ZipCode::parse(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn extracts_a_standalone_zip_from_an_address() {
        assert_eq!(
            ZipCode::extract("1 Main St, Denver, CO 80202").unwrap().as_str(),
            "80202"
        );
        assert_eq!(
            ZipCode::extract("Suite 123456, CO 80202-1111").unwrap().as_str(),
            "80202"
        );
        assert!(ZipCode::extract("no zip here 1234").is_none());
    }
}
