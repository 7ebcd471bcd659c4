//! Fixed records that every generated catalogue contains, whatever its size and seed, so that
//! demos, end-to-end tests and other crates can refer to them by these constants.
//!
//! They come first in their tables:
//!
//! * employers 1 to 4: Acme (active, whole market), Northwind (active, restricted network),
//!   Globex (inactive) and Initech (pending);
//! * organisations 1 to 3 and locations 1 to 6: two Denver practices (one of them virtual) and
//!   a New York one, followed by one clinic in each of 13 other large metros (locations 7 to
//!   19, organisations 4 to 16); only as many as `SeedConfig::clinics` allows are generated;
//! * the first payer, its first three plans, one employer group per demo employer and the Doe,
//!   Rivera, Carter and Morgan families on the roster.
//!
//! Family members have their own member ids; `subscriber_member_id` links them to the
//! subscriber.

// ---- Employers -------------------------------------------------------------------------------

/// Active employer whose members see the whole market (empty network).
pub const ACME_EMPLOYER_ID: i64 = 1;
pub const ACME_NAME: &str = "Acme Corporation";
pub const ACME_ALIAS: &str = "acme";

/// Active employer whose members see only [`NORTHWIND_NETWORK_ORGANISATION_IDS`].
pub const NORTHWIND_EMPLOYER_ID: i64 = 2;
pub const NORTHWIND_NAME: &str = "Northwind Health Partners";
pub const NORTHWIND_ALIAS: &str = "northwind";
/// Northwind's restricted network: the Denver practice (1), the New York practice (3) and the
/// Los Angeles clinic (4). Not the virtual practice (2), nor Chicago (5) and beyond. Ids that
/// a small catalogue does not reach are left out.
pub const NORTHWIND_NETWORK_ORGANISATION_IDS: [i64; 3] = [
    DENVER_ORGANISATION_ID,
    NEW_YORK_ORGANISATION_ID,
    LOS_ANGELES_ORGANISATION_ID,
];

/// Inactive employer (the "not yet participating" banner and dialog).
pub const GLOBEX_EMPLOYER_ID: i64 = 3;
pub const GLOBEX_NAME: &str = "Globex Industries";
pub const GLOBEX_ALIAS: &str = "globex";

/// Pending employer.
pub const INITECH_EMPLOYER_ID: i64 = 4;
pub const INITECH_NAME: &str = "Initech";
pub const INITECH_ALIAS: &str = "initech";

/// How many employers are fixed demo records.
pub const EMPLOYER_COUNT: usize = 4;

// ---- Organisations and locations -------------------------------------------------------------

/// A three-location Denver practice (locations 1, 2 and 3) with a provider portal.
pub const DENVER_ORGANISATION_ID: i64 = 1;
pub const DENVER_ORGANISATION_NAME: &str = "Front Range Direct Primary Care";
/// The demo provider account: invited to act for the Denver organisation when the server seeds
/// an empty catalogue (its set-password link is in the development mailbox).
pub const DEMO_PROVIDER_EMAIL: &str = "demo.provider@frontrange-dpc.example";
/// Downtown Denver (ZIP 80202): accepting new patients, pediatrics (BH) from 0 to 17.
pub const DENVER_LOCATION_ID: i64 = 1;
pub const DENVER_LOCATION_NAME: &str = "LoDo";
pub const DENVER_ZIP: &str = "80202";
/// Cherry Creek, Denver (ZIP 80206): not accepting new patients (the waitlist flow).
pub const DENVER_WAITLIST_LOCATION_ID: i64 = 2;
pub const DENVER_WAITLIST_ZIP: &str = "80206";
/// Highlands, Denver (ZIP 80211): accepting new patients, no pediatrics, and the only demo
/// location with a post-enrolment redirect.
pub const DENVER_HIGHLANDS_LOCATION_ID: i64 = 3;

/// A virtual practice headquartered in Denver, without a provider portal.
pub const VIRTUAL_ORGANISATION_ID: i64 = 2;
pub const VIRTUAL_ORGANISATION_NAME: &str = "Rocky Mountain Virtual Care";
/// Virtual location serving [`VIRTUAL_STATES`], accepting new patients.
pub const VIRTUAL_LOCATION_ID: i64 = 4;
pub const VIRTUAL_STATES: [&str; 4] = ["CO", "NM", "UT", "WY"];

/// A two-location New York practice (locations 5 and 6).
pub const NEW_YORK_ORGANISATION_ID: i64 = 3;
pub const NEW_YORK_ORGANISATION_NAME: &str = "Hudson Family Health";
/// Chelsea, Manhattan (ZIP 10001): accepting new patients, pediatrics from 0 to 17.
pub const NEW_YORK_LOCATION_ID: i64 = 5;
pub const NEW_YORK_LOCATION_NAME: &str = "Chelsea";
pub const NEW_YORK_ZIP: &str = "10001";
/// Murray Hill, Manhattan (ZIP 10016): accepting new patients.
pub const NEW_YORK_MURRAY_HILL_LOCATION_ID: i64 = 6;

/// The single-clinic organisation in Los Angeles (ZIP 90012), location 7.
pub const LOS_ANGELES_ORGANISATION_ID: i64 = 4;
pub const LOS_ANGELES_LOCATION_ID: i64 = 7;

/// ZIPs of the metro clinics that follow the Denver and New York ones, one clinic each,
/// accepting new patients: locations 7 to 19 and organisations 4 to 16, in this order.
pub const METRO_ZIPS: [&str; 13] = [
    "90012", // Los Angeles
    "60601", // Chicago
    "77002", // Houston
    "85004", // Phoenix
    "19103", // Philadelphia
    "78205", // San Antonio
    "92101", // San Diego
    "75201", // Dallas
    "98101", // Seattle
    "02108", // Boston
    "30303", // Atlanta
    "33131", // Miami
    "94103", // San Francisco
];

/// How many locations (and organisations) are fixed demo records when the catalogue is big
/// enough to hold them all.
pub const LOCATION_COUNT: usize = 6 + METRO_ZIPS.len();
pub const ORGANISATION_COUNT: usize = 3 + METRO_ZIPS.len();

// ---- Insurance -------------------------------------------------------------------------------

/// The demo payer (the first one).
pub const PAYER_ID: &str = "60054";
pub const PAYER_NAME: &str = "Cascade Health Plan";

/// Acme's and Globex's plan.
pub const ACME_PLAN_ID: &str = "PLN-1001";
pub const ACME_PLAN_NAME: &str = "Cascade Gold PPO";
/// Northwind's plan.
pub const NORTHWIND_PLAN_ID: &str = "PLN-1002";
pub const NORTHWIND_PLAN_NAME: &str = "Cascade Silver HMO";
/// Initech's plan.
pub const INITECH_PLAN_ID: &str = "PLN-1003";
pub const GLOBEX_PLAN_ID: &str = ACME_PLAN_ID;

/// Group numbers: `1000000 + 10 * employer id + n` for the employer's n-th group.
pub const ACME_GROUP_NUMBER: &str = "1000011";
pub const NORTHWIND_GROUP_NUMBER: &str = "1000021";
pub const GLOBEX_GROUP_NUMBER: &str = "1000031";
pub const INITECH_GROUP_NUMBER: &str = "1000041";

// ---- Roster ------------------------------------------------------------------------------------

/// Jane Doe: Acme subscriber.
pub const SUBSCRIBER_FIRST_NAME: &str = "Jane";
pub const SUBSCRIBER_LAST_NAME: &str = "Doe";
pub const SUBSCRIBER_DATE_OF_BIRTH: &str = "1985-04-12";
pub const SUBSCRIBER_MEMBER_ID: &str = "123-456789";

/// John Doe: Jane's spouse.
pub const SPOUSE_FIRST_NAME: &str = "John";
pub const SPOUSE_LAST_NAME: &str = "Doe";
pub const SPOUSE_DATE_OF_BIRTH: &str = "1984-09-30";
pub const SPOUSE_MEMBER_ID: &str = "123-456790";

/// Emma Doe: Jane's daughter, pediatric care covered.
pub const CHILD_FIRST_NAME: &str = "Emma";
pub const CHILD_LAST_NAME: &str = "Doe";
pub const CHILD_DATE_OF_BIRTH: &str = "2016-06-01";
pub const CHILD_MEMBER_ID: &str = "123-456791";

/// Alex Rivera: Northwind subscriber (restricted network).
pub const NORTHWIND_SUBSCRIBER_FIRST_NAME: &str = "Alex";
pub const NORTHWIND_SUBSCRIBER_LAST_NAME: &str = "Rivera";
pub const NORTHWIND_SUBSCRIBER_DATE_OF_BIRTH: &str = "1990-02-14";
pub const NORTHWIND_SUBSCRIBER_MEMBER_ID: &str = "234-567890";

/// Leo Rivera: Alex's son, pediatric care NOT covered (the pediatric refusal flow).
pub const NORTHWIND_CHILD_FIRST_NAME: &str = "Leo";
pub const NORTHWIND_CHILD_LAST_NAME: &str = "Rivera";
pub const NORTHWIND_CHILD_DATE_OF_BIRTH: &str = "2019-08-23";
pub const NORTHWIND_CHILD_MEMBER_ID: &str = "234-567891";

/// Sam Carter: Globex subscriber (inactive employer).
pub const GLOBEX_SUBSCRIBER_FIRST_NAME: &str = "Sam";
pub const GLOBEX_SUBSCRIBER_LAST_NAME: &str = "Carter";
pub const GLOBEX_SUBSCRIBER_DATE_OF_BIRTH: &str = "1979-11-05";
pub const GLOBEX_SUBSCRIBER_MEMBER_ID: &str = "345-678901";

/// Pat Morgan: Initech subscriber (pending employer).
pub const INITECH_SUBSCRIBER_FIRST_NAME: &str = "Pat";
pub const INITECH_SUBSCRIBER_LAST_NAME: &str = "Morgan";
pub const INITECH_SUBSCRIBER_DATE_OF_BIRTH: &str = "1988-03-22";
pub const INITECH_SUBSCRIBER_MEMBER_ID: &str = "456-789012";

/// Member ids the generator never hands out to anyone else.
pub const RESERVED_MEMBER_IDS: [&str; 7] = [
    SUBSCRIBER_MEMBER_ID,
    SPOUSE_MEMBER_ID,
    CHILD_MEMBER_ID,
    NORTHWIND_SUBSCRIBER_MEMBER_ID,
    NORTHWIND_CHILD_MEMBER_ID,
    GLOBEX_SUBSCRIBER_MEMBER_ID,
    INITECH_SUBSCRIBER_MEMBER_ID,
];

// ---- The clinic panel's demo members ---------------------------------------------------------

/// What became of a demo member's enrolment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DemoOutcome {
    /// Waiting for the first visit (the panel's New tab).
    Pending,
    /// The first visit happened this many days ago (the Active tab).
    Active { first_visit_days_ago: u32 },
    /// The clinic declined the enrolment this many days ago, for this reason (the Past tab).
    Declined { days_ago: u32, reason: &'static str },
}

/// A member enrolled at the demo provider's organisation (Front Range Direct Primary Care)
/// when the server seeds an empty catalogue, so its members screen is not empty. Acme members
/// on Acme's plan, eligibility confirmed, with member ids the roster does not hold; those with
/// an email can sign in after Forgot password.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DemoMember {
    pub first_name: &'static str,
    pub last_name: &'static str,
    pub date_of_birth: &'static str,
    pub member_id: &'static str,
    /// `Self`, `Spouse` or `Dependent`.
    pub relation: &'static str,
    /// The index in [`DEMO_MEMBERS`] of the subscriber of a family member.
    pub subscriber: Option<usize>,
    pub email: Option<&'static str>,
    pub phone: Option<&'static str>,
    pub location_id: i64,
    pub enrolled_days_ago: u32,
    pub outcome: DemoOutcome,
}

/// The demo members, subscribers before their family.
pub const DEMO_MEMBERS: [DemoMember; 7] = [
    DemoMember {
        first_name: "Maria",
        last_name: "Garcia",
        date_of_birth: "1988-02-14",
        member_id: "900-100001",
        relation: "Self",
        subscriber: None,
        email: Some("maria.garcia@demo-member.example"),
        phone: Some("+13035550141"),
        location_id: DENVER_LOCATION_ID,
        enrolled_days_ago: 2,
        outcome: DemoOutcome::Pending,
    },
    DemoMember {
        first_name: "Leo",
        last_name: "Garcia",
        date_of_birth: "2021-05-09",
        member_id: "900-100002",
        relation: "Dependent",
        subscriber: Some(0),
        email: None,
        phone: None,
        location_id: DENVER_LOCATION_ID,
        enrolled_days_ago: 2,
        outcome: DemoOutcome::Pending,
    },
    DemoMember {
        first_name: "Daniel",
        last_name: "Kim",
        date_of_birth: "1979-07-30",
        member_id: "900-100003",
        relation: "Self",
        subscriber: None,
        email: Some("daniel.kim@demo-member.example"),
        phone: Some("+17205550162"),
        location_id: DENVER_HIGHLANDS_LOCATION_ID,
        enrolled_days_ago: 1,
        outcome: DemoOutcome::Pending,
    },
    DemoMember {
        first_name: "Priya",
        last_name: "Patel",
        date_of_birth: "1992-11-03",
        member_id: "900-100004",
        relation: "Self",
        subscriber: None,
        email: Some("priya.patel@demo-member.example"),
        phone: Some("+13035550177"),
        location_id: DENVER_LOCATION_ID,
        enrolled_days_ago: 40,
        outcome: DemoOutcome::Active {
            first_visit_days_ago: 35,
        },
    },
    DemoMember {
        first_name: "Samuel",
        last_name: "Okafor",
        date_of_birth: "1965-01-22",
        member_id: "900-100005",
        relation: "Self",
        subscriber: None,
        email: Some("samuel.okafor@demo-member.example"),
        phone: Some("+13035550188"),
        location_id: DENVER_WAITLIST_LOCATION_ID,
        enrolled_days_ago: 20,
        outcome: DemoOutcome::Active {
            first_visit_days_ago: 14,
        },
    },
    DemoMember {
        first_name: "Tom",
        last_name: "Becker",
        date_of_birth: "1986-06-18",
        member_id: "900-100006",
        relation: "Self",
        subscriber: None,
        email: Some("tom.becker@demo-member.example"),
        phone: Some("+17205550199"),
        location_id: DENVER_LOCATION_ID,
        enrolled_days_ago: 9,
        outcome: DemoOutcome::Active {
            first_visit_days_ago: 6,
        },
    },
    DemoMember {
        first_name: "Mia",
        last_name: "Becker",
        date_of_birth: "2025-09-01",
        member_id: "900-100007",
        relation: "Dependent",
        subscriber: Some(5),
        email: None,
        phone: None,
        location_id: DENVER_LOCATION_ID,
        enrolled_days_ago: 9,
        outcome: DemoOutcome::Declined {
            days_ago: 7,
            reason: "We cannot take new patients under 2 years old",
        },
    },
];
