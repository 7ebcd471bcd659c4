//! Where clinics go: cities by population, ZIP centroids around them, a small jitter, and
//! street addresses and phone numbers that look local.

use domain::LatLng;
use gazetteer::{Gazetteer, ZipPlace};

use crate::rng::{Rng, Weighted, pick_weighted};

/// Kilometres per degree of latitude (and of longitude at the equator).
const KM_PER_DEGREE: f64 = 111.32;

/// Cities drawn by population, each with its nearest ZIP centroids, looked up once per city.
pub(crate) struct Places<'g> {
    gazetteer: &'g Gazetteer,
    city_weights: Weighted,
    /// For each city (by its position in `Gazetteer::cities`), its nearest ZIPs, nearest first.
    neighbourhoods: Vec<Option<Box<[&'g ZipPlace]>>>,
}

impl<'g> Places<'g> {
    pub(crate) fn new(gazetteer: &'g Gazetteer) -> Self {
        let cities = gazetteer.cities();
        assert!(
            !cities.is_empty() && !gazetteer.zips().is_empty(),
            "the gazetteer has no cities or no ZIPs"
        );
        // GeoNames lists New York City and its five boroughs as separate places; counting the
        // whole city on top of its boroughs would pile twice its share onto lower Manhattan.
        let city_weights = Weighted::new(cities.iter().map(|city| {
            if city.name == "New York City" && city.state == "NY" {
                0.0
            } else {
                f64::from(city.population)
            }
        }));
        Self {
            gazetteer,
            city_weights,
            neighbourhoods: vec![None; cities.len()],
        }
    }

    /// Draws a city with probability proportional to its population.
    pub(crate) fn pick_city(&self, rng: &mut Rng) -> usize {
        self.city_weights.sample(rng)
    }

    /// Draws a city of at least `min_population` people (or the best of a few tries), so large
    /// groups sit in metros that could hold them.
    pub(crate) fn pick_city_of_at_least(&self, min_population: u32, rng: &mut Rng) -> usize {
        let mut best = self.pick_city(rng);
        for _ in 0..8 {
            if self.population(best) >= min_population {
                break;
            }
            let candidate = self.pick_city(rng);
            if self.population(candidate) > self.population(best) {
                best = candidate;
            }
        }
        best
    }

    pub(crate) fn population(&self, city: usize) -> u32 {
        self.gazetteer.cities()[city].population
    }

    /// Returns one of the ZIPs of the city itself: the ~10 nearest centroids for a small town,
    /// more for a large city (about one per 50,000 people, at most 80).
    pub(crate) fn local_zip(&mut self, city: usize, rng: &mut Rng) -> &'g ZipPlace {
        let local = local_zip_count(self.population(city));
        let neighbourhood = self.neighbourhood(city);
        neighbourhood[rng.below(local.min(neighbourhood.len()))]
    }

    /// Returns one of the ZIPs of the wider metro area: twice as many centroids as
    /// [`Self::local_zip`] draws from.
    pub(crate) fn metro_zip(&mut self, city: usize, rng: &mut Rng) -> &'g ZipPlace {
        let neighbourhood = self.neighbourhood(city);
        neighbourhood[rng.below(neighbourhood.len())]
    }

    /// Looks a ZIP up by its five digits.
    pub(crate) fn zip(&self, code: &str) -> Option<&'g ZipPlace> {
        domain::ZipCode::parse(code).and_then(|zip| self.gazetteer.zip(zip))
    }

    fn neighbourhood(&mut self, city: usize) -> &[&'g ZipPlace] {
        let gazetteer = self.gazetteer;
        self.neighbourhoods[city].get_or_insert_with(|| {
            let place = &gazetteer.cities()[city];
            let count = 2 * local_zip_count(place.population);
            gazetteer.nearest_zips(place.position, count).collect()
        })
    }
}

fn local_zip_count(population: u32) -> usize {
    (population / 50_000).clamp(10, 80) as usize
}

/// Moves a point by up to `max_km` in a uniformly random direction (uniform over the disc),
/// rounded to 6 decimals (about 10 cm).
pub(crate) fn jitter(center: LatLng, max_km: f64, rng: &mut Rng) -> (f64, f64) {
    // Rejection sampling keeps this to IEEE basic arithmetic: no platform-dependent sin/cos.
    let (east, north) = loop {
        let x = 2.0 * rng.unit() - 1.0;
        let y = 2.0 * rng.unit() - 1.0;
        if x * x + y * y <= 1.0 {
            break (x * max_km, y * max_km);
        }
    };
    let lat = (center.lat + north / KM_PER_DEGREE).clamp(-89.9, 89.9);
    let km_per_degree_lng = KM_PER_DEGREE * cos_degrees(center.lat).max(0.05);
    let mut lng = center.lng + east / km_per_degree_lng;
    if lng < -180.0 {
        lng += 360.0;
    } else if lng > 180.0 {
        lng -= 360.0;
    }
    (round6(lat), round6(lng))
}

fn round6(value: f64) -> f64 {
    (value * 1e6).round() / 1e6
}

/// Cosine of an angle in degrees, |angle| <= 90, by its Taylor series (error below 1e-9):
/// plain arithmetic, so the same on every platform.
fn cos_degrees(degrees: f64) -> f64 {
    let x = degrees.abs().min(90.0) * (std::f64::consts::PI / 180.0);
    let x2 = x * x;
    let mut term = 1.0;
    let mut sum = 1.0;
    for n in 1..=9 {
        let n = f64::from(n);
        term *= -x2 / ((2.0 * n - 1.0) * (2.0 * n));
        sum += term;
    }
    sum
}

/// Common US street names (the most frequent ones in the Census TIGER files, roughly).
const STREET_NAMES: &[&str] = &[
    "Main",
    "Oak",
    "Maple",
    "Park",
    "Pine",
    "Cedar",
    "Elm",
    "Washington",
    "Lake",
    "Hill",
    "Walnut",
    "Spring",
    "Ridge",
    "Church",
    "Willow",
    "Mill",
    "Sunset",
    "Jackson",
    "Cherry",
    "Highland",
    "Madison",
    "Lincoln",
    "Franklin",
    "Jefferson",
    "Meadow",
    "River",
    "Center",
    "Forest",
    "Broadway",
    "Market",
    "Union",
    "Water",
    "Chestnut",
    "Locust",
    "Adams",
    "Dogwood",
    "Lakeview",
    "Valley",
    "Grant",
    "College",
    "Hickory",
    "Poplar",
    "Sycamore",
    "Magnolia",
    "Birch",
    "Aspen",
    "Laurel",
    "Spruce",
    "Colfax",
    "Commerce",
    "Colonial",
    "Monroe",
    "Prospect",
    "Pleasant",
    "Woodland",
    "Riverside",
    "Grove",
    "Orchard",
    "Summit",
    "Hillcrest",
    "Fairview",
    "Academy",
    "Liberty",
    "Harrison",
    "Clinton",
    "Wilson",
    "Franklin",
    "Canyon",
    "Vista",
    "Meridian",
    "Ocean",
    "Bay",
    "Mesa",
    "Prairie",
    "Bluff",
    "Greenway",
    "Heritage",
    "Timber",
];

/// Street types: the abbreviation used in addresses and the full word.
const STREET_TYPES: &[((&str, &str), u32)] = &[
    (("St", "Street"), 30),
    (("Ave", "Avenue"), 22),
    (("Rd", "Road"), 12),
    (("Dr", "Drive"), 12),
    (("Blvd", "Boulevard"), 7),
    (("Ln", "Lane"), 5),
    (("Pkwy", "Parkway"), 4),
    (("Way", "Way"), 4),
    (("Ct", "Court"), 2),
    (("Pl", "Place"), 2),
];

/// A street address and the street's name as a person would say it ("Oak Street").
pub(crate) struct StreetAddress {
    pub address1: String,
    pub street: String,
}

/// Returns an address like "4821 W Oak St, Suite 210" or "1290 14th Ave".
pub(crate) fn street_address(rng: &mut Rng) -> StreetAddress {
    let number = match rng.below(10) {
        0..=2 => rng.between(100, 999),
        3..=8 => rng.between(1000, 9999),
        _ => rng.between(10000, 19999),
    };
    let (abbreviation, full) = pick_weighted(rng, STREET_TYPES);
    let name = if rng.chance(0.12) {
        ordinal(rng.between(1, 120))
    } else {
        (*rng.pick(STREET_NAMES)).to_owned()
    };
    let direction = if rng.chance(0.2) {
        *rng.pick(&["N ", "S ", "E ", "W "])
    } else {
        ""
    };
    let mut address1 = format!("{number} {direction}{name} {abbreviation}");
    match rng.below(20) {
        0..=6 => address1.push_str(&format!(", Suite {}", rng.between(1, 9) * 100 + rng.between(0, 20))),
        7 => address1.push_str(&format!(", Ste {}", rng.between(100, 450))),
        8 => address1.push_str(&format!(", Unit {}", (b'A' + rng.below(6) as u8) as char)),
        9 => address1.push_str(&format!(", Floor {}", rng.between(2, 12))),
        _ => {}
    }
    StreetAddress {
        address1,
        street: format!("{name} {full}"),
    }
}

fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// Real area codes by state. A ZIP's three-digit prefix picks one, so clinics in one area
/// share an area code.
const AREA_CODES: &[(&str, &[u16])] = &[
    ("AK", &[907]),
    ("AL", &[205, 251, 256, 334]),
    ("AR", &[479, 501, 870]),
    ("AZ", &[480, 520, 602, 623, 928]),
    (
        "CA",
        &[
            209, 213, 310, 323, 408, 415, 510, 530, 559, 562, 619, 626, 650, 661, 707, 714, 760, 805, 818, 858, 909,
            916, 925, 949, 951,
        ],
    ),
    ("CO", &[303, 719, 720, 970]),
    ("CT", &[203, 860]),
    ("DC", &[202]),
    ("DE", &[302]),
    (
        "FL",
        &[
            239, 305, 321, 352, 386, 407, 561, 727, 754, 772, 813, 850, 863, 904, 941, 954,
        ],
    ),
    ("GA", &[229, 404, 470, 478, 678, 706, 770, 912]),
    ("HI", &[808]),
    ("IA", &[319, 515, 563, 641, 712]),
    ("ID", &[208]),
    ("IL", &[217, 309, 312, 618, 630, 708, 773, 815, 847]),
    ("IN", &[219, 260, 317, 574, 765, 812]),
    ("KS", &[316, 620, 785, 913]),
    ("KY", &[270, 502, 606, 859]),
    ("LA", &[225, 318, 337, 504, 985]),
    ("MA", &[339, 413, 508, 617, 774, 781, 978]),
    ("MD", &[240, 301, 410, 443]),
    ("ME", &[207]),
    ("MI", &[231, 248, 269, 313, 517, 586, 616, 734, 810, 906, 989]),
    ("MN", &[218, 320, 507, 612, 651, 763, 952]),
    ("MO", &[314, 417, 573, 636, 660, 816]),
    ("MS", &[228, 601, 662]),
    ("MT", &[406]),
    ("NC", &[252, 336, 704, 828, 910, 919, 980]),
    ("ND", &[701]),
    ("NE", &[308, 402]),
    ("NH", &[603]),
    ("NJ", &[201, 609, 732, 856, 908, 973]),
    ("NM", &[505, 575]),
    ("NV", &[702, 775]),
    (
        "NY",
        &[212, 315, 347, 516, 518, 585, 607, 631, 646, 716, 718, 845, 914, 917],
    ),
    ("OH", &[216, 234, 330, 419, 440, 513, 614, 740, 937]),
    ("OK", &[405, 580, 918]),
    ("OR", &[503, 541, 971]),
    ("PA", &[215, 267, 412, 484, 570, 610, 717, 724, 814]),
    ("PR", &[787, 939]),
    ("RI", &[401]),
    ("SC", &[803, 843, 864]),
    ("SD", &[605]),
    ("TN", &[423, 615, 731, 865, 901, 931]),
    (
        "TX",
        &[
            210, 214, 254, 281, 325, 361, 409, 432, 512, 713, 806, 817, 830, 903, 915, 936, 940, 956, 972, 979,
        ],
    ),
    ("UT", &[385, 435, 801]),
    ("VA", &[276, 434, 540, 571, 703, 757, 804]),
    ("VT", &[802]),
    ("WA", &[206, 253, 360, 425, 509]),
    ("WI", &[262, 414, 608, 715, 920]),
    ("WV", &[304]),
    ("WY", &[307]),
];

/// Area codes of the big cities' ZIP prefixes, where a state-wide guess would be wrong.
const CITY_AREA_CODES: &[(&str, &[u16])] = &[
    ("021", &[617, 857]), // Boston
    ("100", &[212, 646]), // Manhattan
    ("101", &[212, 646]),
    ("102", &[212, 646]),
    ("103", &[718, 347]), // Staten Island
    ("104", &[718, 347]), // The Bronx
    ("112", &[718, 347]), // Brooklyn
    ("113", &[718, 347]), // Queens
    ("114", &[718, 347]),
    ("116", &[718, 347]),
    ("191", &[215, 267]),      // Philadelphia
    ("200", &[202]),           // Washington
    ("303", &[404, 470]),      // Atlanta
    ("331", &[305, 786]),      // Miami
    ("482", &[313]),           // Detroit
    ("554", &[612]),           // Minneapolis
    ("606", &[312, 773]),      // Chicago
    ("752", &[214, 972]),      // Dallas
    ("770", &[713, 281, 832]), // Houston
    ("782", &[210]),           // San Antonio
    ("787", &[512, 737]),      // Austin
    ("802", &[303, 720]),      // Denver
    ("850", &[602, 480]),      // Phoenix
    ("891", &[702]),           // Las Vegas
    ("900", &[213, 323, 310]), // Los Angeles
    ("921", &[619, 858]),      // San Diego
    ("941", &[415, 628]),      // San Francisco
    ("972", &[503, 971]),      // Portland
    ("981", &[206]),           // Seattle
];

/// Returns a phone number "AAA-555-01NN" with an area code of the ZIP's city or state. The
/// 555-0100 to 555-0199 lines are reserved for fiction, so no real person is ever called.
pub(crate) fn phone(zip: &ZipPlace, rng: &mut Rng) -> String {
    let prefix = zip.zip.get(..3).unwrap_or("");
    let city = CITY_AREA_CODES.binary_search_by(|(code, _)| (*code).cmp(prefix));
    let state = AREA_CODES.binary_search_by(|(state, _)| (*state).cmp(zip.state.as_str()));
    let area_code = match (city, state) {
        (Ok(found), _) => *rng.pick(CITY_AREA_CODES[found].1),
        (_, Ok(found)) => {
            // One code per ZIP prefix, so neighbouring clinics share it.
            let codes = AREA_CODES[found].1;
            let hash = prefix
                .bytes()
                .fold(0u32, |hash, byte| hash.wrapping_mul(31) ^ u32::from(byte));
            codes[(hash.wrapping_mul(2_654_435_761) >> 16) as usize % codes.len()]
        }
        _ => 555,
    };
    format!("{area_code}-555-01{:02}", rng.below(100))
}

/// The 50 states and DC, which virtual clinics may serve.
pub(crate) const STATES: &[&str] = &[
    "AK", "AL", "AR", "AZ", "CA", "CO", "CT", "DC", "DE", "FL", "GA", "HI", "IA", "ID", "IL", "IN", "KS", "KY", "LA",
    "MA", "MD", "ME", "MI", "MN", "MO", "MS", "MT", "NC", "ND", "NE", "NH", "NJ", "NM", "NV", "NY", "OH", "OK", "OR",
    "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VA", "VT", "WA", "WI", "WV", "WY",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cosine_series_agrees_with_the_library() {
        for degrees in [0.0, 18.0, 39.7, 45.0, 64.8, 71.3, 89.0] {
            let expected = f64::to_radians(degrees).cos();
            assert!((cos_degrees(degrees) - expected).abs() < 1e-9, "{degrees}");
        }
    }

    #[test]
    fn jitter_stays_within_the_radius() {
        let mut rng = Rng::new(1, 0);
        let center = LatLng::new(39.75, -105.0).unwrap();
        for _ in 0..1000 {
            let (lat, lng) = jitter(center, 2.0, &mut rng);
            let miles = domain::haversine_miles(center, LatLng::new(lat, lng).unwrap());
            assert!(miles * 1.609_344 <= 2.01, "{miles}");
        }
    }

    #[test]
    fn area_code_tables_are_sorted_and_complete() {
        assert!(AREA_CODES.windows(2).all(|pair| pair[0].0 < pair[1].0));
        assert!(CITY_AREA_CODES.windows(2).all(|pair| pair[0].0 < pair[1].0));
        for state in STATES {
            assert!(AREA_CODES.iter().any(|(code_state, _)| code_state == state), "{state}");
        }
    }

    #[test]
    fn ordinals_read_naturally() {
        let words: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 102, 111].map(ordinal).to_vec();
        assert_eq!(
            words,
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "102nd", "111th"
            ]
        );
    }
}
