//! Great-circle geometry on a spherical Earth, in miles.

use serde::{Deserialize, Serialize};

/// Mean Earth radius in statute miles (IUGG mean radius, 6,371.0088 km).
pub const EARTH_RADIUS_MILES: f64 = 3958.7613;

/// A WGS84 position in degrees.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct LatLng {
    pub lat: f64,
    pub lng: f64,
}

impl LatLng {
    /// Builds a position, refusing latitudes outside [-90, 90], longitudes outside [-180, 180]
    /// and non-finite numbers.
    pub fn new(lat: f64, lng: f64) -> Option<Self> {
        let valid = lat.is_finite() && lng.is_finite() && lat.abs() <= 90.0 && lng.abs() <= 180.0;
        valid.then_some(Self { lat, lng })
    }

    /// Returns the unit vector of this position on the sphere; the Euclidean (chord) distance
    /// between two such vectors grows with the great-circle distance, so a 3-D nearest-neighbour
    /// search orders by great-circle distance without any antimeridian special case.
    pub fn unit_vector(self) -> [f64; 3] {
        let (lat, lng) = (self.lat.to_radians(), self.lng.to_radians());
        [lat.cos() * lng.cos(), lat.cos() * lng.sin(), lat.sin()]
    }
}

/// Returns the great-circle distance between two positions in miles (haversine formula).
pub fn haversine_miles(a: LatLng, b: LatLng) -> f64 {
    let (lat1, lat2) = (a.lat.to_radians(), b.lat.to_radians());
    let half_dlat = (lat2 - lat1) / 2.0;
    let half_dlng = (b.lng - a.lng).to_radians() / 2.0;
    let h = half_dlat.sin().powi(2) + lat1.cos() * lat2.cos() * half_dlng.sin().powi(2);
    2.0 * EARTH_RADIUS_MILES * h.sqrt().min(1.0).asin()
}

/// Returns the chord length on the unit sphere that corresponds to a great-circle distance.
pub fn chord_for_miles(miles: f64) -> f64 {
    let angle = (miles / EARTH_RADIUS_MILES).min(std::f64::consts::PI);
    2.0 * (angle / 2.0).sin()
}

/// Returns the great-circle distance in miles that a chord of the unit sphere spans: the
/// inverse of [`chord_for_miles`]. From two unit vectors it costs a square root and an arcsine,
/// where the haversine formula costs four more trigonometric calls.
pub fn miles_for_chord(chord: f64) -> f64 {
    2.0 * EARTH_RADIUS_MILES * (chord / 2.0).min(1.0).asin()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn miles_for_chord_agrees_with_haversine() {
        let origin = LatLng::new(40.7128, -74.0060).unwrap();
        let [ox, oy, oz] = origin.unit_vector();
        for (lat, lng) in [
            (40.7128, -74.0060),
            (40.7129, -74.0061),
            (40.9, -73.5),
            (34.0522, -118.2437),
            (-33.9, 151.2),
        ] {
            let other = LatLng::new(lat, lng).unwrap();
            let [x, y, z] = other.unit_vector();
            let chord = ((x - ox).powi(2) + (y - oy).powi(2) + (z - oz).powi(2)).sqrt();
            let (by_chord, by_haversine) = (miles_for_chord(chord), haversine_miles(origin, other));
            assert!(
                (by_chord - by_haversine).abs() <= 1e-9 * by_haversine.max(1.0),
                "{by_chord} {by_haversine}"
            );
        }
    }

    #[test]
    fn new_york_to_los_angeles_is_about_2450_miles() {
        let nyc = LatLng::new(40.7128, -74.0060).unwrap();
        let la = LatLng::new(34.0522, -118.2437).unwrap();
        let miles = haversine_miles(nyc, la);
        assert!((miles - 2445.0).abs() < 10.0, "{miles}");
    }

    #[test]
    fn chord_order_matches_great_circle_order() {
        let origin = LatLng::new(40.0, -100.0).unwrap();
        let near = LatLng::new(40.5, -100.2).unwrap();
        let far = LatLng::new(41.0, -101.0).unwrap();
        let chord = |p: LatLng| {
            let (a, b) = (origin.unit_vector(), p.unit_vector());
            ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
        };
        assert!(chord(near) < chord(far));
        let miles = haversine_miles(origin, far);
        assert!((chord_for_miles(miles) - chord(far)).abs() < 1e-12);
    }

    #[test]
    fn out_of_range_positions_are_refused() {
        assert!(LatLng::new(91.0, 0.0).is_none());
        assert!(LatLng::new(0.0, -180.5).is_none());
        assert!(LatLng::new(f64::NAN, 0.0).is_none());
    }
}
