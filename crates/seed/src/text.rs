//! Descriptions assembled from sentence templates.
//!
//! About 30% of clinic descriptions (and 15% of clinician ones) run past 300 characters, where
//! the UI offers its show-more toggle; the rest stay at or under 300.

use crate::rng::Rng;

/// The length above which the UI collapses a description.
pub(crate) const COLLAPSE_ABOVE: usize = 300;

/// Values the `{placeholders}` of a template refer to.
#[derive(Default)]
pub(crate) struct Vars<'a> {
    pub name: &'a str,
    pub city: &'a str,
    pub state: &'a str,
    pub states: &'a str,
    pub first: &'a str,
    pub last: &'a str,
    pub credentials: &'a str,
    pub speciality: &'a str,
    /// What a physician of the speciality is called ("family physician", "pediatrician").
    pub role: &'a str,
    pub interest: &'a str,
    pub pronoun: &'a str,
    pub possessive: &'a str,
    pub min_age: i16,
    pub max_age: i16,
    pub number: u32,
}

/// Appends `template` with its placeholders replaced.
fn render(template: &str, vars: &Vars<'_>, out: &mut String) {
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        let key = &rest[open + 1..open + close];
        match key {
            "name" => out.push_str(vars.name),
            "city" => out.push_str(vars.city),
            "state" => out.push_str(vars.state),
            "states" => out.push_str(vars.states),
            "first" => out.push_str(vars.first),
            "last" => out.push_str(vars.last),
            "credentials" => out.push_str(vars.credentials),
            "speciality" => out.push_str(vars.speciality),
            "role" => out.push_str(vars.role),
            "interest" => out.push_str(vars.interest),
            "Pronoun" => push_capitalised(vars.pronoun, out),
            "pronoun" => out.push_str(vars.pronoun),
            "possessive" => out.push_str(vars.possessive),
            "min_age" => out.push_str(&vars.min_age.to_string()),
            "max_age" => out.push_str(&vars.max_age.to_string()),
            "number" => out.push_str(&vars.number.to_string()),
            _ => out.push_str(&rest[open..=open + close]),
        }
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
}

fn push_capitalised(word: &str, out: &mut String) {
    let mut chars = word.chars();
    if let Some(first) = chars.next() {
        out.extend(first.to_uppercase());
        out.push_str(chars.as_str());
    }
}

/// Builds a description: one opening sentence, then sentences from `pool` (the `preferred`
/// ones first, in order, then random others) until the text is long (`long`: past
/// [`COLLAPSE_ABOVE`]) or has its target of 1 to 4 sentences without passing it.
fn compose(opening: &str, preferred: &[&str], pool: &[&str], long: bool, vars: &Vars<'_>, rng: &mut Rng) -> String {
    let mut out = String::with_capacity(512);
    render(opening, vars, &mut out);
    let target = if long { 6 } else { rng.between(1, 4) as usize };
    let mut sentences = 1;
    let mut used = 0u64;
    let mut preferred = preferred.iter();
    let mut misses = 0;
    while sentences < target && misses < 8 {
        let template = match preferred.next() {
            Some(template) => *template,
            None => {
                let index = rng.below(pool.len());
                if used & (1 << index) != 0 {
                    misses += 1;
                    continue;
                }
                used |= 1 << index;
                pool[index]
            }
        };
        let before = out.len();
        out.push(' ');
        render(template, vars, &mut out);
        if !long && out.len() > COLLAPSE_ABOVE {
            out.truncate(before);
            misses += 1;
            continue;
        }
        sentences += 1;
        if long && out.len() > COLLAPSE_ABOVE && sentences >= 3 {
            break;
        }
    }
    // Millions of these are kept: give back the spare capacity.
    out.shrink_to_fit();
    out
}

/// What a clinic description mentions beyond the general pitch.
pub(crate) struct ClinicFacts {
    pub is_virtual: bool,
    pub pediatrics: Option<(i16, i16)>,
    pub mental_health: bool,
    pub urgent_care: bool,
    pub at_work: bool,
    pub in_home: bool,
    pub accepting_new_patients: bool,
}

const CLINIC_OPENINGS: &[&str] = &[
    "{name} is a direct primary care practice serving {city}, {state} and the surrounding communities.",
    "At {name}, your membership covers unlimited primary care visits with no copays and no surprise bills.",
    "{name} offers membership-based primary care for individuals, families and employers in {city}.",
    "{name} brings affordable, relationship-based primary care to {city} through employer-sponsored memberships.",
    "Founded by local physicians, {name} practices direct primary care in the heart of {city}.",
    "{name} is a neighborhood clinic in {city} where your doctor knows you by name.",
    "{name} provides primary care the way it should be: personal, unhurried and transparent.",
];

const VIRTUAL_OPENINGS: &[&str] = &[
    "{name} is a virtual direct primary care practice offering video, phone and text visits to members in {states}.",
    "{name} delivers primary care online to members in {states}, with a dedicated physician who is a message away.",
];

const CLINIC_SENTENCES: &[&str] = &[
    "Members get same-day or next-day appointments, extended visits of 30 to 60 minutes, and direct access to their physician by phone or text.",
    "Our care team handles preventive care, chronic disease management, minor procedures and sick visits in one place.",
    "We offer in-house labs and wholesale-priced generic medications, which often saves members hundreds of dollars a year.",
    "Because we do not bill insurance for primary care, we spend our time with patients instead of paperwork.",
    "Appointments start on time, and most visits can be booked online the same day.",
    "We coordinate referrals to trusted local specialists and help members navigate imaging and hospital care.",
    "Annual physicals, women's health exams, vaccinations and care for diabetes, hypertension and asthma are included in the membership.",
    "Free parking is available, and the clinic is accessible for patients with limited mobility.",
    "Spanish-speaking staff are available to help with appointments and questions.",
    "Members can reach the care team after hours for urgent questions.",
    "New members start with a comprehensive visit to review their history, medications and health goals.",
    "We keep our patient panels small so that every member gets the time and attention they deserve.",
];

const VIRTUAL_SENTENCES: &[&str] = &[
    "Visits happen by secure video or phone, and most messages are answered within a few hours.",
    "Prescriptions are sent to the pharmacy of your choice, and lab orders go to a nearby partner lab.",
    "When an exam in person is needed, our team arranges a visit with a trusted local clinic.",
    "Members can book a visit from their phone in minutes, including evenings and weekends.",
];

const PEDIATRICS_FROM_BIRTH: &str = "We care for the whole family, from newborns to age {max_age}, including well-child checks, sports physicals and school forms.";
const PEDIATRICS_FROM_AGE: &str =
    "We see children from age {min_age} to {max_age}, including well-child checks, sports physicals and school forms.";
const MENTAL_HEALTH: &str = "Behavioral health support, including anxiety and depression screening and short-term counseling, is part of our care model.";
const URGENT_CARE: &str = "Walk-in urgent care slots are held every weekday for members who need to be seen quickly.";
const AT_WORK: &str = "Our clinicians also hold regular on-site hours at partner employers' workplaces.";
const IN_HOME: &str = "For members who cannot easily travel, we offer home visits within our service area.";
const PANEL_FULL: &str =
    "Our patient panel is currently full; join the waitlist and we will reach out when a spot opens.";

/// Writes a clinic description of 1 to 4 sentences (a few more when it has to pass the
/// collapse threshold).
pub(crate) fn clinic_description(vars: &Vars<'_>, facts: &ClinicFacts, long: bool, rng: &mut Rng) -> String {
    let opening = if facts.is_virtual {
        *rng.pick(VIRTUAL_OPENINGS)
    } else {
        *rng.pick(CLINIC_OPENINGS)
    };
    let mut preferred: [&str; 6] = [""; 6];
    let mut count = 0;
    let mut prefer = |include: bool, template: &'static str, rng: &mut Rng| {
        if include && rng.chance(0.7) {
            preferred[count] = template;
            count += 1;
        }
    };
    if !facts.accepting_new_patients {
        prefer(true, PANEL_FULL, rng);
    }
    if let Some((min_age, _)) = facts.pediatrics {
        prefer(
            true,
            if min_age == 0 {
                PEDIATRICS_FROM_BIRTH
            } else {
                PEDIATRICS_FROM_AGE
            },
            rng,
        );
    }
    prefer(facts.mental_health, MENTAL_HEALTH, rng);
    prefer(facts.urgent_care, URGENT_CARE, rng);
    prefer(facts.at_work && !facts.is_virtual, AT_WORK, rng);
    prefer(facts.in_home && !facts.is_virtual, IN_HOME, rng);
    let pool = if facts.is_virtual {
        VIRTUAL_SENTENCES
    } else {
        CLINIC_SENTENCES
    };
    compose(opening, &preferred[..count], pool, long, vars, rng)
}

const PHYSICIAN_OPENINGS: &[&str] = &[
    "Dr. {last} is a board-certified {role} who has practiced direct primary care for {number} years.",
    "Dr. {first} {last} trained in {speciality} and believes in unhurried visits and long-term relationships with patients.",
    "Dr. {first} {last}, {credentials}, practices {speciality} with a focus on prevention and continuity of care.",
];

const PRACTITIONER_OPENINGS: &[&str] = &[
    "{first} {last}, {credentials}, is a nurse practitioner focused on {speciality} and preventive care.",
    "{first} {last}, {credentials}, has cared for patients in {speciality} for {number} years.",
];

const ASSISTANT_OPENINGS: &[&str] = &[
    "{first} {last}, PA-C, works alongside our physicians in {speciality}.",
    "{first} {last} is a physician assistant with {number} years of experience in {speciality}.",
];

const CLINICIAN_SENTENCES: &[&str] = &[
    "{Pronoun} has a special interest in {interest}.",
    "{Pronoun} enjoys helping patients set realistic goals and stay active.",
    "Outside the clinic, {pronoun} enjoys hiking, cooking and time with family.",
    "{Pronoun} speaks English and Spanish.",
    "{Pronoun} trained at a university hospital and worked in a busy community practice before moving to direct primary care, where visits are long enough to get to the root of a problem.",
    "Patients appreciate {possessive} clear explanations and the time {pronoun} takes to listen.",
    "{Pronoun} works closely with local specialists and coordinates care when a referral is needed.",
    "{Pronoun} answers most messages from members the same day.",
];

/// The clinician's kind of licence, which picks the opening sentence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Licence {
    Physician,
    NursePractitioner,
    PhysicianAssistant,
}

/// Writes a short clinician biography.
pub(crate) fn clinician_description(vars: &Vars<'_>, licence: Licence, long: bool, rng: &mut Rng) -> String {
    let openings = match licence {
        Licence::Physician => PHYSICIAN_OPENINGS,
        Licence::NursePractitioner => PRACTITIONER_OPENINGS,
        Licence::PhysicianAssistant => ASSISTANT_OPENINGS,
    };
    let opening = *rng.pick(openings);
    compose(opening, &[], CLINICIAN_SENTENCES, long, vars, rng)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_placeholders_and_keeps_unknown_ones() {
        let vars = Vars {
            name: "Summit DPC",
            city: "Boise",
            pronoun: "she",
            ..Vars::default()
        };
        let mut out = String::new();
        render("{name} in {city}; {Pronoun} said {odd}.", &vars, &mut out);
        assert_eq!(out, "Summit DPC in Boise; She said {odd}.");
    }

    #[test]
    fn short_descriptions_stay_under_the_threshold_and_long_ones_pass_it() {
        let vars = Vars {
            name: "Front Range Direct Primary Care",
            city: "Colorado Springs",
            state: "CO",
            ..Vars::default()
        };
        let facts = ClinicFacts {
            is_virtual: false,
            pediatrics: Some((0, 17)),
            mental_health: true,
            urgent_care: true,
            at_work: true,
            in_home: true,
            accepting_new_patients: false,
        };
        let mut rng = Rng::new(5, 0);
        for _ in 0..500 {
            assert!(clinic_description(&vars, &facts, false, &mut rng).len() <= COLLAPSE_ABOVE);
            assert!(clinic_description(&vars, &facts, true, &mut rng).len() > COLLAPSE_ABOVE);
        }
    }
}
