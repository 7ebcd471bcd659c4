//! Employers, marketplace categories, vendors and solutions.

use std::collections::HashSet;

use domain::{Category, Employer, EmployerStatus, Facilitator, Location, Solution, SolutionKind, SolutionRate, Vendor};

use crate::demo;
use crate::names::{Census, slug};
use crate::places;
use crate::rng::{Rng, pick_weighted, stream};

/// Employers for a catalogue of `clinics` locations: 40, plus one per 5,000 clinics, at most 500.
pub(crate) fn employer_count(clinics: usize) -> usize {
    (40 + clinics / 5_000).min(500)
}

const EMPLOYER_STATUSES: &[(EmployerStatus, u32)] = &[
    (EmployerStatus::Active, 70),
    (EmployerStatus::Inactive, 15),
    (EmployerStatus::Pending, 15),
];
const NETWORK_SHARE: f64 = 0.20;
const ALIAS_SHARE: f64 = 0.85;

const COMPANY_WORDS: &[&str] = &[
    "Pinnacle",
    "Bluewater",
    "Harborview",
    "Ironwood",
    "Silverline",
    "Redstone",
    "Brightpath",
    "Northgate",
    "Riverstone",
    "Clearwater",
    "Summit Ridge",
    "Golden Prairie",
    "Evergreen",
    "Lakeshore",
    "Granite Peak",
    "Copperfield",
    "Sterling",
    "Oakmont",
    "Westbrook",
    "Meridian",
    "Trailhead",
    "Cobalt",
    "Falcon",
    "Bridgewater",
    "Sunbelt",
    "Keystone",
    "Frontier",
    "Tidewater",
    "Highpoint",
    "Cedar Creek",
    "Blue Mesa",
    "Union Square",
    "Old Mill",
    "Paragon",
    "Vantage",
    "Atlas",
    "Horizon",
    "Quarry Hill",
    "Red Oak",
    "Stonegate",
];

const COMPANY_KINDS: &[&str] = &[
    "Logistics",
    "Manufacturing",
    "Foods",
    "Bank & Trust",
    "Construction",
    "Energy",
    "Software",
    "Hospitality Group",
    "Credit Union",
    "School District",
    "Freight",
    "Outfitters",
    "Insurance Agency",
    "Engineering",
    "Brewing Company",
    "Retail Group",
    "County Government",
    "Staffing",
    "Labs",
    "Analytics",
    "Aerospace",
    "Packaging",
    "Plastics",
    "Textiles",
    "Motors",
    "Realty",
    "Media",
    "Telecom",
    "Hotels",
    "Farms",
    "Dairy",
    "Robotics",
    "Builders",
    "Printing",
    "Utilities",
    "Transit Authority",
];

/// Generates the employers: the four demo ones first, then fictional companies with unique
/// names and (mostly) unique aliases; about one in five has a restricted network.
pub(crate) fn employers(clinics: usize, seed: u64, organisations: usize, locations: &[Location]) -> Vec<Employer> {
    let census = Census::get();
    let mut rng = Rng::new(seed, stream::EMPLOYERS);
    let northwind_network: Vec<i64> = demo::NORTHWIND_NETWORK_ORGANISATION_IDS
        .into_iter()
        .filter(|id| *id as usize <= organisations)
        .collect();
    let demo_employer = |id: i64, name: &str, alias: &str, status, network: Vec<i64>| Employer {
        id,
        company_name: name.to_owned(),
        alias: Some(alias.to_owned()),
        status,
        network_organisation_ids: network,
    };
    let mut employers = vec![
        demo_employer(
            demo::ACME_EMPLOYER_ID,
            demo::ACME_NAME,
            demo::ACME_ALIAS,
            EmployerStatus::Active,
            Vec::new(),
        ),
        demo_employer(
            demo::NORTHWIND_EMPLOYER_ID,
            demo::NORTHWIND_NAME,
            demo::NORTHWIND_ALIAS,
            EmployerStatus::Active,
            northwind_network,
        ),
        demo_employer(
            demo::GLOBEX_EMPLOYER_ID,
            demo::GLOBEX_NAME,
            demo::GLOBEX_ALIAS,
            EmployerStatus::Inactive,
            Vec::new(),
        ),
        demo_employer(
            demo::INITECH_EMPLOYER_ID,
            demo::INITECH_NAME,
            demo::INITECH_ALIAS,
            EmployerStatus::Pending,
            Vec::new(),
        ),
    ];
    let mut names: HashSet<String> = employers.iter().map(|employer| employer.company_name.clone()).collect();
    let mut aliases: HashSet<String> = employers.iter().filter_map(|employer| employer.alias.clone()).collect();
    let total = employer_count(clinics);
    // The first generated employers take every status, so even a tiny catalogue has them all.
    let mut statuses = [
        EmployerStatus::Active,
        EmployerStatus::Inactive,
        EmployerStatus::Pending,
    ]
    .into_iter();
    while employers.len() < total {
        let company_name = loop {
            let candidate = match rng.below(10) {
                0..=6 => format!("{} {}", rng.pick(COMPANY_WORDS), rng.pick(COMPANY_KINDS)),
                7 => format!("{} & {} LLP", census.surname(&mut rng), census.surname(&mut rng)),
                8 => format!("{} Brothers {}", census.surname(&mut rng), rng.pick(COMPANY_KINDS)),
                _ => format!("{} Industries", census.surname(&mut rng)),
            };
            if names.insert(candidate.clone()) {
                break candidate;
            }
        };
        let alias = rng.chance(ALIAS_SHARE).then(|| {
            let base = slug(&company_name);
            if aliases.insert(base.clone()) {
                return base;
            }
            (2..)
                .map(|n| format!("{base}-{n}"))
                .find(|candidate| aliases.insert(candidate.clone()))
                .unwrap_or(base)
        });
        let status = statuses
            .next()
            .unwrap_or_else(|| pick_weighted(&mut rng, EMPLOYER_STATUSES));
        let network_organisation_ids = if !locations.is_empty() && rng.chance(NETWORK_SHARE) {
            restricted_network(locations, &mut rng)
        } else {
            Vec::new()
        };
        employers.push(Employer {
            id: employers.len() as i64 + 1,
            company_name,
            alias,
            status,
            network_organisation_ids,
        });
    }
    employers
}

/// Between 2 and 12 organisations, drawn through random locations so that organisations with
/// many locations are likelier to be in a network; sorted, without repeats.
fn restricted_network(locations: &[Location], rng: &mut Rng) -> Vec<i64> {
    let wanted = rng.between(2, 12) as usize;
    let mut network: Vec<i64> = (0..wanted * 3).map(|_| rng.pick(locations).organisation_id).collect();
    network.sort_unstable();
    network.dedup();
    network.truncate(wanted);
    network
}

/// Categories: (name, slug).
const CATEGORIES: &[(&str, &str)] = &[
    ("Virtual Care", "virtual-care"),
    ("Behavioral Health", "behavioral-health"),
    ("Physical Therapy", "physical-therapy"),
    ("Pharmacy", "pharmacy"),
    ("Wellness", "wellness"),
    ("Specialty Care", "specialty-care"),
];

pub(crate) fn categories() -> Vec<Category> {
    CATEGORIES
        .iter()
        .enumerate()
        .map(|(index, (name, slug))| Category {
            id: index as i64 + 1,
            name: (*name).to_owned(),
            slug: (*slug).to_owned(),
            position: index as i32 + 1,
        })
        .collect()
}

/// Vendors: (company name, category id, description).
const VENDORS: &[(&str, i64, &str)] = &[
    (
        "Cloverleaf Telehealth",
        1,
        "Cloverleaf Telehealth connects members with board-certified physicians by video around the clock, and sends visit notes back to their primary care clinic.",
    ),
    (
        "Mindful Path Behavioral Health",
        2,
        "Mindful Path offers therapy and psychiatry for adults, teens and children, with a first appointment typically available within a week.",
    ),
    (
        "Stride Physical Therapy Network",
        3,
        "Stride is a national network of independent physical therapy clinics with transparent cash prices and no referral needed.",
    ),
    (
        "Apothecary Direct Pharmacy",
        4,
        "Apothecary Direct ships maintenance medications at wholesale prices with free two-day delivery.",
    ),
    (
        "Vitality Wellness Co.",
        5,
        "Vitality runs employer wellness programs: biometric screenings, health coaching and team challenges.",
    ),
    (
        "Clearview Specialty Partners",
        6,
        "Clearview gives primary care clinicians fast access to specialist e-consults and bundled-price procedures.",
    ),
    (
        "Tranquil Minds Counseling",
        2,
        "Tranquil Minds provides short-term counseling by video and phone, including evenings and weekends.",
    ),
    (
        "MotionWorks PT",
        3,
        "MotionWorks delivers guided exercise therapy through an app, with a licensed physical therapist reviewing progress weekly.",
    ),
    (
        "RxBridge Pharmacy Services",
        4,
        "RxBridge manages specialty and brand medications, finding manufacturer assistance and lower-cost alternatives.",
    ),
    (
        "Nourish Nutrition Coaching",
        5,
        "Nourish pairs members with registered dietitians for one-to-one nutrition coaching and diabetes prevention.",
    ),
    (
        "CardioPoint Specialty Care",
        6,
        "CardioPoint offers cardiology e-consults, remote heart monitoring and bundled cardiac imaging.",
    ),
    (
        "NightOwl Virtual Urgent Care",
        1,
        "NightOwl treats minor illnesses and injuries by video at night and on weekends, when the member's clinic is closed.",
    ),
];

pub(crate) fn vendors(seed: u64) -> Vec<Vendor> {
    let census = Census::get();
    let mut rng = Rng::new(seed, stream::MARKETPLACE);
    VENDORS
        .iter()
        .enumerate()
        .map(|(index, (company_name, category_id, description))| {
            let slug = slug(company_name);
            let gender = if rng.chance(0.5) {
                domain::Gender::F
            } else {
                domain::Gender::M
            };
            let first = census.first_name(gender, &mut rng);
            let last = census.surname(&mut rng);
            Vendor {
                id: index as i64 + 1,
                company_name: (*company_name).to_owned(),
                category_id: *category_id,
                logo: String::new(),
                description: (*description).to_owned(),
                website: format!("https://www.{slug}.example"),
                contact_first_name: first.to_owned(),
                contact_last_name: last.to_owned(),
                contact_email: format!("{}.{}@{slug}.example", first.to_lowercase(), last.to_lowercase()),
                address1: places::street_address(&mut rng).address1,
            }
        })
        .collect()
}

/// A solution of the fixed marketplace.
struct SolutionSpec {
    name: &'static str,
    kind: SolutionKind,
    category_id: i64,
    vendor_id: Option<i64>,
    /// How much the solution's headline service costs per member per month; the adult rate a
    /// participating clinic is paid grows with it (see [`solution_rates`]).
    base_rate_cents: i64,
    description: &'static str,
    definition: &'static str,
}

const SOLUTIONS: &[SolutionSpec] = &[
    SolutionSpec {
        name: "Nearcare National Virtual Network",
        kind: SolutionKind::VirtualNetwork,
        category_id: 1,
        vendor_id: None,
        base_rate_cents: 1200,
        description: "A nationwide network of virtual primary care practices that members can join wherever they live, including states without a local clinic.",
        definition: "Virtual network: clinics share members across state lines under one contract.",
    },
    SolutionSpec {
        name: "Cloverleaf 24/7 Telehealth Network",
        kind: SolutionKind::VirtualNetwork,
        category_id: 1,
        vendor_id: Some(1),
        base_rate_cents: 650,
        description: "Round-the-clock video visits for members, with notes returned to their primary care clinic.",
        definition: "Virtual network: after-hours coverage for participating clinics.",
    },
    SolutionSpec {
        name: "Mindful Path Behavioral Network",
        kind: SolutionKind::VirtualNetwork,
        category_id: 2,
        vendor_id: Some(2),
        base_rate_cents: 900,
        description: "Therapy and psychiatry appointments within a week for members referred by their clinic.",
        definition: "Virtual network: behavioral health referrals with shared care plans.",
    },
    SolutionSpec {
        name: "Stride PT Network",
        kind: SolutionKind::VirtualNetwork,
        category_id: 3,
        vendor_id: Some(3),
        base_rate_cents: 400,
        description: "Cash-price physical therapy at independent clinics near the member, without a referral.",
        definition: "Virtual network: bundled physical therapy episodes at a fixed price.",
    },
    SolutionSpec {
        name: "Clearview Specialty eConsult Network",
        kind: SolutionKind::VirtualNetwork,
        category_id: 6,
        vendor_id: Some(6),
        base_rate_cents: 550,
        description: "Specialist e-consults answered within two business days across twenty specialities.",
        definition: "Virtual network: specialist advice to the treating clinician.",
    },
    SolutionSpec {
        name: "After-Hours Virtual Urgent Care",
        kind: SolutionKind::Solution,
        category_id: 1,
        vendor_id: Some(12),
        base_rate_cents: 300,
        description: "Video urgent care for evenings and weekends, so members avoid the emergency room for minor problems.",
        definition: "Point solution: urgent care outside clinic hours.",
    },
    SolutionSpec {
        name: "Teletherapy for Adults",
        kind: SolutionKind::Solution,
        category_id: 2,
        vendor_id: Some(7),
        base_rate_cents: 700,
        description: "Short-term counseling by video and phone with licensed therapists.",
        definition: "Point solution: up to twelve counseling sessions a year.",
    },
    SolutionSpec {
        name: "Pediatric Behavioral Health",
        kind: SolutionKind::Solution,
        category_id: 2,
        vendor_id: Some(2),
        base_rate_cents: 450,
        description: "Therapy and care coordination for children and teenagers, with parents involved in the plan.",
        definition: "Point solution: behavioral health for members under 18.",
    },
    SolutionSpec {
        name: "Digital Musculoskeletal Therapy",
        kind: SolutionKind::Solution,
        category_id: 3,
        vendor_id: Some(8),
        base_rate_cents: 350,
        description: "App-guided exercise therapy for back, joint and muscle pain, reviewed weekly by a physical therapist.",
        definition: "Point solution: remote physical therapy.",
    },
    SolutionSpec {
        name: "Generic Medication Program",
        kind: SolutionKind::Solution,
        category_id: 4,
        vendor_id: Some(9),
        base_rate_cents: 150,
        description: "Hundreds of common generic medications at no cost to members.",
        definition: "Point solution: zero-copay generics dispensed by mail.",
    },
    SolutionSpec {
        name: "Mail-Order Maintenance Medications",
        kind: SolutionKind::Solution,
        category_id: 4,
        vendor_id: Some(4),
        base_rate_cents: 200,
        description: "Ninety-day supplies of maintenance medications shipped free to the member's door.",
        definition: "Point solution: home delivery at wholesale prices.",
    },
    SolutionSpec {
        name: "Diabetes Prevention Program",
        kind: SolutionKind::Solution,
        category_id: 5,
        vendor_id: Some(10),
        base_rate_cents: 500,
        description: "A year-long, CDC-recognized lifestyle program for members with prediabetes.",
        definition: "Point solution: group coaching with a registered dietitian.",
    },
    SolutionSpec {
        name: "Weight Management Coaching",
        kind: SolutionKind::Solution,
        category_id: 5,
        vendor_id: Some(5),
        base_rate_cents: 600,
        description: "One-to-one coaching on nutrition, activity and sleep, with optional medical weight management.",
        definition: "Point solution: health coaching for employers' members.",
    },
    SolutionSpec {
        name: "Cardiology eConsults",
        kind: SolutionKind::Solution,
        category_id: 6,
        vendor_id: Some(11),
        base_rate_cents: 250,
        description: "Cardiology advice on ECGs, murmurs and medications without a separate specialist visit.",
        definition: "Point solution: cardiology e-consults for primary care.",
    },
    SolutionSpec {
        name: "Sleep Health Program",
        kind: SolutionKind::Solution,
        category_id: 5,
        vendor_id: None,
        base_rate_cents: 350,
        description: "Home sleep testing and cognitive behavioral therapy for insomnia, coordinated by the member's clinic.",
        definition: "Point solution: sleep diagnostics and therapy.",
    },
    SolutionSpec {
        name: "Chronic Care Management Toolkit",
        kind: SolutionKind::Solution,
        category_id: 6,
        vendor_id: None,
        base_rate_cents: 800,
        description: "Remote monitoring devices and care-manager outreach for members with hypertension, diabetes or heart failure.",
        definition: "Point solution: chronic care management for participating clinics.",
    },
];

/// The facilitator of a solution that no vendor runs.
const HOUSE_FACILITATOR: (&str, &str, &str) = ("Morgan", "Reyes", "1600 Market Street");

pub(crate) fn solutions(vendors: &[Vendor]) -> Vec<Solution> {
    SOLUTIONS
        .iter()
        .enumerate()
        .map(|(index, spec)| {
            let slug = slug(spec.name);
            let vendor = spec.vendor_id.and_then(|id| vendors.get(id as usize - 1));
            let website = vendor.map_or_else(
                || format!("https://www.{slug}.example"),
                |vendor| vendor.website.clone(),
            );
            let facilitator = vendor.map_or_else(
                || {
                    let (first_name, last_name, address1) = HOUSE_FACILITATOR;
                    Facilitator {
                        first_name: first_name.to_owned(),
                        last_name: last_name.to_owned(),
                        email: format!("solutions@{slug}.example"),
                        address1: address1.to_owned(),
                    }
                },
                |vendor| Facilitator {
                    first_name: vendor.contact_first_name.clone(),
                    last_name: vendor.contact_last_name.clone(),
                    email: vendor.contact_email.clone(),
                    address1: vendor.address1.clone(),
                },
            );
            Solution {
                id: index as i64 + 1,
                name: spec.name.to_owned(),
                kind: spec.kind,
                category_id: spec.category_id,
                vendor_id: spec.vendor_id,
                logo: String::new(),
                description: spec.description.to_owned(),
                definition: spec.definition.to_owned(),
                website,
                facilitator,
                // 0 %, 0.25 %, ... 2 %, then again: every TPA fee the spec allows occurs.
                tpa_basis_points: (index as u32 * 25) % 225,
            }
        })
        .collect()
}

/// The rate groups every solution offers, with their share of the adult rate in percent.
const RATE_GROUPS: &[(&str, i64)] = &[("Children (0-17)", 60), ("Adults (18-64)", 100), ("Seniors (65+)", 130)];

/// Three rates per solution, ids dense and 1-based. The adult rate is $40 plus five times the
/// solution's headline cost; the others are shares of it, rounded to 50 cents.
pub(crate) fn solution_rates() -> Vec<SolutionRate> {
    SOLUTIONS
        .iter()
        .enumerate()
        .flat_map(|(index, spec)| {
            let adult = 4_000 + 5 * spec.base_rate_cents;
            RATE_GROUPS
                .iter()
                .enumerate()
                .map(move |(group_index, (group, share))| SolutionRate {
                    id: (index * RATE_GROUPS.len() + group_index) as i64 + 1,
                    solution_id: index as i64 + 1,
                    group: (*group).to_owned(),
                    base_rate_cents: (adult * share / 100 + 25) / 50 * 50,
                })
        })
        .collect()
}
