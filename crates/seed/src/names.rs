//! People's names from the 1990 US Census lists in `data/names`, drawn by frequency.

use std::sync::OnceLock;

use domain::Gender;

use crate::rng::{Rng, Weighted};

const SURNAMES_CSV: &str = include_str!("../../../data/names/surnames.csv");
const FEMALE_CSV: &str = include_str!("../../../data/names/female.csv");
const MALE_CSV: &str = include_str!("../../../data/names/male.csv");

/// One name list with its frequency distribution.
pub(crate) struct NameList {
    names: Vec<&'static str>,
    weights: Weighted,
}

impl NameList {
    fn parse(csv: &'static str) -> Self {
        let rows: Vec<(&'static str, f64)> = csv
            .lines()
            .skip(1)
            .filter_map(|line| {
                let (name, frequency) = line.split_once(',')?;
                Some((name.trim(), frequency.trim().parse().ok()?))
            })
            .filter(|(name, frequency)| !name.is_empty() && *frequency > 0.0)
            .collect();
        let weights = Weighted::new(rows.iter().map(|(_, frequency)| *frequency));
        let names = rows.into_iter().map(|(name, _)| name).collect();
        Self { names, weights }
    }

    pub(crate) fn sample(&self, rng: &mut Rng) -> &'static str {
        self.names[self.weights.sample(rng)]
    }

    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.names.len()
    }
}

/// The three Census lists.
pub(crate) struct Census {
    pub surnames: NameList,
    pub female: NameList,
    pub male: NameList,
}

impl Census {
    /// Returns the lists, parsed once per process.
    pub(crate) fn get() -> &'static Census {
        static CENSUS: OnceLock<Census> = OnceLock::new();
        CENSUS.get_or_init(|| Census {
            surnames: NameList::parse(SURNAMES_CSV),
            female: NameList::parse(FEMALE_CSV),
            male: NameList::parse(MALE_CSV),
        })
    }

    pub(crate) fn first_name(&self, gender: Gender, rng: &mut Rng) -> &'static str {
        match gender {
            Gender::F => self.female.sample(rng),
            Gender::M => self.male.sample(rng),
        }
    }

    pub(crate) fn surname(&self, rng: &mut Rng) -> &'static str {
        self.surnames.sample(rng)
    }
}

/// Turns a name into a URL slug: lowercase ASCII letters and digits joined by single dashes,
/// "&" read as "and".
pub(crate) fn slug(text: &str) -> String {
    let mut slug = String::with_capacity(text.len() + 4);
    for word in text.split(|c: char| !c.is_ascii_alphanumeric() && c != '&' && c != '\'') {
        let word: String = word
            .chars()
            .filter(|c| *c != '\'')
            .map(|c| c.to_ascii_lowercase())
            .collect::<String>()
            .replace('&', "and");
        if word.is_empty() {
            continue;
        }
        if !slug.is_empty() {
            slug.push('-');
        }
        slug.push_str(&word);
    }
    slug
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_census_list() {
        let census = Census::get();
        assert_eq!(census.surnames.len(), 5000);
        assert_eq!(census.female.len(), 1000);
        assert_eq!(census.male.len(), 1000);
    }

    #[test]
    fn common_names_come_up_more_often() {
        let census = Census::get();
        let mut rng = Rng::new(3, 0);
        let smiths = (0..20_000).filter(|_| census.surname(&mut rng) == "Smith").count();
        // Smith is about 1% of the sample population and about 1.1% of the top 5,000.
        assert!((150..320).contains(&smiths), "{smiths}");
    }

    #[test]
    fn slugs_are_lowercase_words_joined_by_dashes() {
        assert_eq!(slug("Summit Direct Primary Care"), "summit-direct-primary-care");
        assert_eq!(slug("Wellness & Primary Care"), "wellness-and-primary-care");
        assert_eq!(slug("  O'Neil  Family -- Health "), "oneil-family-health");
    }
}
