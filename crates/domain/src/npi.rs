//! National Provider Identifiers: ten digits whose last is a Luhn check digit computed over the
//! first nine with the card-issuer prefix 80840 in front (CMS, "Requirements for NPI check
//! digit").

/// The NPI check digit of a 9-digit base: the Luhn digit of "80840" followed by the base
/// (the prefix's doubled digits contribute the constant 24).
pub fn check_digit(base: u64) -> u64 {
    let mut sum = 24;
    let mut rest = base;
    let mut double = true;
    while rest > 0 {
        let digit = rest % 10;
        sum += if double {
            let doubled = digit * 2;
            if doubled > 9 { doubled - 9 } else { doubled }
        } else {
            digit
        };
        double = !double;
        rest /= 10;
    }
    (10 - sum % 10) % 10
}

/// Whether `text` is an NPI: ten ASCII digits, the first 1 or 2, with a valid check digit.
pub fn is_valid(text: &str) -> bool {
    let bytes = text.as_bytes();
    if bytes.len() != 10 || !bytes.iter().all(u8::is_ascii_digit) || !matches!(bytes[0], b'1' | b'2') {
        return false;
    }
    let base: u64 = text[..9].parse().expect("nine digits");
    check_digit(base) == u64::from(bytes[9] - b'0')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_digit_matches_the_cms_example() {
        // CMS's worked example: NPI 123456789 -> check digit 3.
        assert_eq!(check_digit(123_456_789), 3);
        assert!(is_valid("1234567893"));
    }

    #[test]
    fn refuses_a_changed_digit_and_other_shapes() {
        assert!(!is_valid("1234567894"));
        assert!(!is_valid("123456789"));
        assert!(!is_valid("12345678a3"));
        assert!(!is_valid("12345678930"));
        // A valid check digit, but NPIs start with 1 or 2.
        let base = 912_345_678;
        assert!(!is_valid(&format!("{base}{}", check_digit(base))));
    }
}
