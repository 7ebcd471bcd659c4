//! The marketplace search filters, as the spec's "Search filters" names them.

use serde::{Deserialize, Serialize};

/// The largest radius a search covers, in miles, whatever the slider says.
pub const MAX_SEARCH_MILES: f64 = 100.0;

/// The filter drawer's distance slider: 0 (no slider limit) or 1..=9 (10 to 50 miles).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "i64", into = "i64")]
pub struct DistanceSlider(u8);

impl DistanceSlider {
    /// The slider's starting position, 30 miles.
    pub const DEFAULT: Self = Self(5);

    pub fn new(position: i64) -> Option<Self> {
        u8::try_from(position).ok().filter(|p| *p <= 9).map(Self)
    }

    /// Returns the search radius: 10, 15, ..., 50 miles for 1..=9, and the 100-mile maximum
    /// for 0.
    pub fn radius_miles(self) -> f64 {
        match self.0 {
            0 => MAX_SEARCH_MILES,
            position => 5.0 + 5.0 * f64::from(position),
        }
    }

    pub fn position(self) -> u8 {
        self.0
    }
}

impl Default for DistanceSlider {
    fn default() -> Self {
        Self::DEFAULT
    }
}

impl TryFrom<i64> for DistanceSlider {
    type Error = String;
    fn try_from(position: i64) -> Result<Self, Self::Error> {
        Self::new(position).ok_or_else(|| format!("searchDistance must be 0 to 9, got {position}"))
    }
}

impl From<DistanceSlider> for i64 {
    fn from(slider: DistanceSlider) -> Self {
        i64::from(slider.0)
    }
}

/// The body's `search.filters` object. Every field is optional; absent lists mean "any".
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SearchFilters {
    /// Words matched against clinic, location, organisation and clinician names.
    pub search_by_name: Option<String>,
    /// Only locations accepting new patients.
    pub new_patients: bool,
    /// Only locations offering pediatrics (service type BH).
    pub pediatrics: bool,
    pub selected_credentials: Vec<String>,
    pub selected_specialities: Vec<String>,
    /// "F" and/or "M".
    pub selected_genders: Vec<String>,
    /// Organisation or group names.
    pub selected_group_and_organizations: Vec<String>,
    pub search_distance: DistanceSlider,
    /// Service type codes every result must offer (BH is pediatrics).
    pub service_types: Vec<String>,
    /// The employer's company name, as chosen in the employer select.
    pub employer: Option<String>,
    pub zip_code: Option<String>,
    pub user_zip_code: Option<String>,
    /// Only the signed-in member's favourite clinics and clinicians.
    pub favorites: bool,
    /// ISO 639 codes: locations where one of them is spoken (by the clinic or one of its
    /// clinicians), and clinicians who speak one.
    pub selected_languages: Vec<String>,
    /// Plan-Net accessibility codes: locations that list every one of them.
    pub selected_accessibility: Vec<String>,
}

/// The service type code the spec uses for pediatrics.
pub const PEDIATRICS_SERVICE_TYPE: &str = "BH";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slider_positions_map_to_the_spec_radii() {
        let radii: Vec<f64> = (1..=9)
            .map(|p| DistanceSlider::new(p).unwrap().radius_miles())
            .collect();
        assert_eq!(radii, [10.0, 15.0, 20.0, 25.0, 30.0, 35.0, 40.0, 45.0, 50.0]);
        assert_eq!(DistanceSlider::new(0).unwrap().radius_miles(), MAX_SEARCH_MILES);
        assert_eq!(DistanceSlider::default().radius_miles(), 30.0);
        assert!(DistanceSlider::new(10).is_none() && DistanceSlider::new(-1).is_none());
    }

    #[test]
    fn filters_parse_from_the_spec_field_names() {
        let filters: SearchFilters = serde_json::from_str(
            r#"{"searchByName":"smith","newPatients":true,"selectedGenders":["F"],"searchDistance":2}"#,
        )
        .unwrap();
        assert_eq!(filters.search_by_name.as_deref(), Some("smith"));
        assert!(filters.new_patients && !filters.pediatrics);
        assert_eq!(filters.search_distance.radius_miles(), 15.0);
        assert!(serde_json::from_str::<SearchFilters>(r#"{"searchDistance":12}"#).is_err());
    }
}
