//! The search link's first screen as HTML: the same elements, classes, attributes and texts the
//! React app renders for it (web/src/features/marketplace/components: marketplace-page.tsx,
//! results-panel.tsx, result-card.tsx and the ui components they use), so the page looks the
//! same before and after the app replaces it. Classes are the CSS modules' `file__class` names
//! (web/vite.config.ts). Every text and attribute is escaped here, nowhere else.

use std::fmt::Write;

use chrono::NaiveDate;
use domain::catalogue::CareModalities;
use serde::Deserialize;

/// Card names are cut at 20 characters, addresses at 19 (result-card.tsx).
const CARD_NAME_MAX: usize = 20;
const CARD_ADDRESS_MAX: usize = 19;
/// Cards per page (search-constants.ts `PAGE_SIZE`).
pub const PAGE_SIZE: usize = 6;
/// With 1 to this many result pages, the 'Find more providers' hint shows.
const FIND_MORE_MAX_PAGES: u32 = 3;
/// Numbered page buttons the pager shows (pager.tsx).
const VISIBLE_PAGE_BUTTONS: u32 = 4;
/// A listing unconfirmed for longer than this shows "Not verified recently" (listing-freshness.ts).
const NOT_VERIFIED_RECENTLY_DAYS: i64 = 120;

/// A search answer as the cards read it (the fields the page renders).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Answer {
    pub clinics: Vec<Item>,
    pub clinicians: Vec<Item>,
    pub total_pages: u32,
    pub total_results: u64,
    pub radius_miles: f64,
}

/// A card of the answer (types.ts `MarketItem`), as the card reads it.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Item {
    pub entity: String,
    pub location_id: i64,
    pub location_name: Option<String>,
    pub name: Option<String>,
    pub credentials: Option<String>,
    pub address: Option<String>,
    pub city: Option<String>,
    pub state: Option<String>,
    pub zip_code: Option<String>,
    pub logo: Option<String>,
    pub distance: Option<f64>,
    pub gender: Option<String>,
    pub new_patients: bool,
    #[serde(default)]
    pub is_virtual_location: bool,
    #[serde(default)]
    pub home_care: bool,
    pub care_modality: Option<CareModalities>,
    pub speciality: Option<String>,
    pub works_at: Option<String>,
    /// Absent: the server does not say (no line); null: never confirmed.
    #[serde(default, deserialize_with = "present")]
    pub last_verified: Option<Option<String>>,
}

/// Tells a null field (`Some(None)`) from a missing one (`None`).
fn present<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(deserializer).map(Some)
}

/// The result tabs (search-state.ts `ResultTab`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tab {
    All,
    Clinics,
    Providers,
}

impl Tab {
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "all" => Some(Self::All),
            "clinics" => Some(Self::Clinics),
            "providers" => Some(Self::Providers),
            _ => None,
        }
    }

    fn key(self) -> &'static str {
        match self {
            Self::All => "all",
            Self::Clinics => "clinics",
            Self::Providers => "providers",
        }
    }
}

/// What the page shows besides the answer: the link's search as the page holds it.
#[derive(Debug, Clone)]
pub struct Screen<'a> {
    /// The employer's company name (the alias's answer) and whether it participates.
    pub company_name: &'a str,
    pub employer_active: bool,
    /// The address box's text.
    pub address: &'a str,
    pub page: u32,
    pub provider_page: u32,
    pub tab: Tab,
    /// The filter chips' labels, in the page's order.
    pub chips: &'a [String],
    /// Today (UTC), for "Not verified recently".
    pub today: NaiveDate,
}

/// Writes `text` escaped for an HTML text node or a quoted attribute value.
pub fn escape_into(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
}

fn escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    escape_into(&mut out, text);
    out
}

/// JavaScript's `text.trim()` cut to `max` UTF-16 units, the cut marked with "..." (format.ts `truncate`).
fn truncate(text: &str, max: usize) -> String {
    let value = text.trim();
    if value.encode_utf16().count() <= max {
        return value.to_owned();
    }
    let mut units = 0;
    let mut cut = String::new();
    for c in value.chars() {
        units += c.len_utf16();
        if units > max {
            break;
        }
        cut.push(c);
    }
    format!("{}...", cut.trim_end())
}

/// JavaScript's `value.toFixed(2)`: the nearest two-decimal number, an exact tie going up
/// (Rust's own formatting ties to even: 1.125 is "1.12" there, "1.13" in the page).
pub fn to_fixed_2(value: f64) -> String {
    let exact = format!("{:.1074}", value.abs());
    let (whole, fraction) = exact.split_once('.').unwrap_or((&exact, ""));
    let digits: Vec<u8> = whole
        .bytes()
        .chain(fraction.bytes().take(2))
        .map(|b| b - b'0')
        .collect();
    let rest = fraction.as_bytes().get(2..).unwrap_or(&[]);
    let round_up = rest.first().is_some_and(|&first| first >= b'5');
    let mut digits = digits;
    if round_up {
        let mut index = digits.len();
        loop {
            if index == 0 {
                digits.insert(0, 1);
                break;
            }
            index -= 1;
            if digits[index] == 9 {
                digits[index] = 0;
            } else {
                digits[index] += 1;
                break;
            }
        }
    }
    let split = digits.len() - 2;
    let mut text = String::new();
    if value < 0.0 && digits.iter().any(|&d| d != 0) {
        text.push('-');
    }
    for (index, digit) in digits.iter().enumerate() {
        if index == split {
            text.push('.');
        }
        text.push(char::from(b'0' + digit));
    }
    text
}

/// JavaScript's `Math.round`: halves go up.
fn js_round(value: f64) -> f64 {
    (value + 0.5).floor()
}

/// The icons of web/src/components/icons/icons.tsx the first screen shows, by their drawing.
mod icons {
    pub const PIN: &str = r#"<path d="M12 21s-7-6.2-7-11a7 7 0 0 1 14 0c0 4.8-7 11-7 11z"></path><circle cx="12" cy="10" r="2.5"></circle>"#;
    pub const CLINIC: &str = r#"<path d="M4 21V8l8-5 8 5v13"></path><path d="M9 21v-5h6v5M12 8v4M10 10h4"></path>"#;
    pub const BRIEFCASE: &str = r#"<rect x="3" y="7" width="18" height="13" rx="2"></rect><path d="M9 7V5a2 2 0 0 1 2-2h2a2 2 0 0 1 2 2v2M3 13h18"></path>"#;
    pub const HOME: &str = r#"<path d="M3 11l9-7 9 7"></path><path d="M5 10v10h14V10"></path>"#;
    pub const PHONE: &str = r#"<path d="M5 4h4l2 5-2.5 1.5a11 11 0 0 0 5 5L15 13l5 2v4a2 2 0 0 1-2 2A16 16 0 0 1 3 6a2 2 0 0 1 2-2"></path>"#;
    pub const CHAT: &str = r#"<path d="M21 12a8 8 0 0 1-11.6 7.1L4 20l1-4.4A8 8 0 1 1 21 12z"></path>"#;
    pub const VIDEO: &str =
        r#"<rect x="3" y="6" width="13" height="12" rx="2"></rect><path d="M16 10l5-3v10l-5-3"></path>"#;
    pub const FILTER: &str = r#"<path d="M4 5h16M7 12h10M10 19h4"></path>"#;
    pub const SEARCH: &str = r#"<circle cx="11" cy="11" r="7"></circle><path d="M20 20l-3.5-3.5"></path>"#;
    pub const CROSSHAIR: &str =
        r#"<circle cx="12" cy="12" r="7"></circle><path d="M12 2v4M12 18v4M2 12h4M18 12h4"></path>"#;
    pub const CHEVRON_LEFT: &str = r#"<path d="M15 18l-6-6 6-6"></path>"#;
    pub const CHEVRON_RIGHT: &str = r#"<path d="M9 18l6-6-6-6"></path>"#;
    pub const CLOSE: &str = r#"<path d="M6 6l12 12M18 6L6 18"></path>"#;
    pub const CHEVRON_DOWN: &str = r#"<path d="M6 9l6 6 6-6"></path>"#;
    pub const MAP: &str = r#"<path d="M9 4L3 6v14l6-2 6 2 6-2V4l-6 2z"></path><path d="M9 4v14M15 6v14"></path>"#;
    pub const CHECK: &str = r#"<path d="M5 12l5 5L20 7"></path>"#;
    pub const MAIL: &str = r#"<rect x="3" y="5" width="18" height="14" rx="2"></rect><path d="M3 7l9 6 9-6"></path>"#;
}

/// An icon as the app's `Svg` draws it: decorative, `size` pixels square.
fn icon(out: &mut String, drawing: &str, size: u32) {
    let _ = write!(
        out,
        r#"<svg width="{size}" height="{size}" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false">{drawing}</svg>"#
    );
}

/// The app's `Button` (button.tsx): its class list, then its attributes and content.
fn button_class(variant: &str, size: &str, extra: Option<&str>) -> String {
    let mut class = format!("button__button button__{variant} button__{size}");
    if let Some(extra) = extra {
        class.push(' ');
        class.push_str(extra);
    }
    class
}

/// Up to two initials of a name (format.ts `initials`).
fn initials(name: &str) -> String {
    let cleaned: String = name
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c.is_whitespace() {
                c
            } else {
                ' '
            }
        })
        .collect();
    let words: Vec<&str> = cleaned.split_whitespace().collect();
    let letters: String = match words.as_slice() {
        [] => return "?".into(),
        [only] => only.chars().take(2).collect(),
        [first, .., last] => first.chars().take(1).chain(last.chars().take(1)).collect(),
    };
    letters.to_uppercase()
}

/// What tells a card apart (card-action.ts `cardTitle`): name, location name, both.
struct Title {
    name: String,
    place: Option<String>,
    full: String,
}

fn card_title(item: &Item) -> Title {
    let name = item
        .name
        .as_deref()
        .filter(|name| !name.is_empty())
        .or(item.location_name.as_deref())
        .unwrap_or("")
        .trim()
        .to_owned();
    let location = item.location_name.as_deref().unwrap_or("").trim().to_owned();
    let place = (item.entity == "location" && !location.is_empty() && location != name).then_some(location);
    let full = match &place {
        Some(place) => format!("{name} — {place}"),
        None => name.clone(),
    };
    Title { name, place, full }
}

/// The card's label and its colour (card-action.ts `entityLabel`).
fn entity_label(item: &Item) -> (&'static str, &'static str) {
    match item.entity.as_str() {
        "provider" => ("Clinician", "#1c6b45"),
        "vendor" | "solution" => ("Point Solution Vendor", "#00796b"),
        _ if item.is_virtual_location => ("Virtual Network", "#6a3fa0"),
        _ => ("Clinic &amp; Organization", "#0b3d91"),
    }
}

/// Whether a listing shows "Not verified recently" today (listing-freshness.ts).
fn not_verified_recently(last_verified: &Option<Option<String>>, today: NaiveDate) -> bool {
    match last_verified {
        None => false,
        Some(None) => true,
        Some(Some(day)) => match NaiveDate::parse_from_str(day.get(..10).unwrap_or(day), "%Y-%m-%d") {
            Ok(day) => (today - day).num_days() > NOT_VERIFIED_RECENTLY_DAYS,
            Err(_) => true,
        },
    }
}

/// The modalities a card lists, in order (care-modalities.tsx).
fn modalities(item: &Item) -> Vec<(&'static str, &'static str)> {
    let listed = item.care_modality.filter(|m| *m != CareModalities::default());
    let shown = listed
        .unwrap_or(CareModalities {
            video: true,
            text_chat: true,
            phone: true,
            at_work: true,
            in_home: item.home_care,
            at_clinic: !item.home_care,
        })
        .as_displayed(item.is_virtual_location);
    [
        (shown.at_clinic, "At-clinic", icons::CLINIC),
        (shown.at_work, "At-work", icons::BRIEFCASE),
        (shown.in_home, "In-home", icons::HOME),
        (shown.phone, "Phone", icons::PHONE),
        (shown.text_chat, "Text/Chat", icons::CHAT),
        (shown.video, "Virtual", icons::VIDEO),
    ]
    .into_iter()
    .filter(|(on, _, _)| *on)
    .map(|(_, label, drawing)| (label, drawing))
    .collect()
}

/// One result card (result-card.tsx `ResultCard`, signed out: no heart), `index` naming its
/// home ZIP form's hint.
pub fn card(out: &mut String, item: &Item, today: NaiveDate, index: usize) {
    let title = card_title(item);
    let full = escaped(&title.full);
    let (label, color) = entity_label(item);
    let is_provider = item.entity == "provider";
    let _ = write!(
        out,
        r#"<article class="result-card__card" aria-label="{full}" data-testid="result-card" data-entity="{}" data-location-id="{}"><div class="result-card__top">"#,
        escaped(&item.entity),
        item.location_id
    );
    // LogoAvatar at 48 px: square for organisations, round for people.
    let _ = write!(
        out,
        r#"<span class="logo-avatar__avatar {}" style="width: 48px; height: 48px; font-size: 17px;">"#,
        if is_provider { "logo-avatar__round" } else { "" }
    );
    match item.logo.as_deref().filter(|logo| !logo.is_empty()) {
        Some(logo) => {
            let _ = write!(
                out,
                r#"<img src="{}" alt="" loading="lazy" width="48" height="48">"#,
                escaped(logo)
            );
        }
        None => {
            let _ = write!(
                out,
                r#"<span aria-hidden="true" data-testid="logo-initials">{}</span>"#,
                escaped(&initials(&title.name))
            );
        }
    }
    let _ = write!(
        out,
        r#"</span><div class="result-card__heading"><span class="result-card__labels"><span class="result-card__label" data-testid="entity-label" style="color: {color}; border-color: {color};">{label}</span></span><h3 class="result-card__name" title="{full}"><button type="button" class="result-card__nameLink">{}"#,
        escaped(&truncate(&title.name, CARD_NAME_MAX))
    );
    if let Some(place) = &title.place {
        let _ = write!(
            out,
            r#"<span class="visually-hidden"> — </span><span class="result-card__place" data-testid="location-name">{}</span>"#,
            escaped(place)
        );
    }
    out.push_str("</button></h3>");
    if let Some(credentials) = item.credentials.as_deref().filter(|text| !text.is_empty()) {
        let _ = write!(
            out,
            r#"<p class="result-card__credentials">{}</p>"#,
            escaped(credentials)
        );
    }
    out.push_str("</div>");
    match item.distance.filter(|miles| miles.is_finite()) {
        Some(miles) => {
            let _ = write!(
                out,
                r#"<span class="result-card__distance" data-testid="distance">{} miles</span>"#,
                to_fixed_2(miles)
            );
        }
        None if item.is_virtual_location => out.push_str(r#"<span class="result-card__distance">Virtual</span>"#),
        None => {}
    }
    out.push_str(r#"</div><dl class="result-card__facts">"#);

    let address = item.address.as_deref().unwrap_or("");
    let state_zip = [item.state.as_deref(), item.zip_code.as_deref()]
        .into_iter()
        .flatten()
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    let place = [item.city.as_deref().unwrap_or(""), state_zip.as_str()]
        .into_iter()
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join(", ");
    if !address.is_empty() || !place.is_empty() {
        let whole = [address, place.as_str()]
            .into_iter()
            .filter(|part| !part.is_empty())
            .collect::<Vec<_>>()
            .join(", ");
        let _ = write!(
            out,
            r#"<div class="result-card__fact"><dt class="visually-hidden">Address</dt><dd title="{}">"#,
            escaped(&whole)
        );
        icon(out, icons::PIN, 14);
        let _ = write!(
            out,
            r#"<span data-testid="address">{}</span>"#,
            escaped(&truncate(address, CARD_ADDRESS_MAX))
        );
        if !place.is_empty() {
            let _ = write!(out, r#"<span class="result-card__muted"> · {}</span>"#, escaped(&place));
        }
        out.push_str("</dd></div>");
    }
    let (availability_class, availability) = if item.new_patients {
        ("result-card__accepting", "Accepting new patients")
    } else {
        ("result-card__closed", "Not accepting new patients")
    };
    let _ = write!(
        out,
        r#"<div class="result-card__fact"><dt class="visually-hidden">Availability</dt><dd class="{availability_class}"><span class="result-card__dot" aria-hidden="true"></span>{availability}</dd></div>"#
    );
    if not_verified_recently(&item.last_verified, today) {
        out.push_str(r#"<div class="result-card__fact"><dt class="visually-hidden">Listing</dt><dd class="result-card__stale" data-testid="not-verified">Not verified recently</dd></div>"#);
    }
    let gender = item
        .gender
        .as_deref()
        .filter(|g| !g.is_empty())
        .map(|g| if g.eq_ignore_ascii_case("f") { "Female" } else { "Male" });
    let works_at = item.works_at.as_deref().filter(|text| is_provider && !text.is_empty());
    for (term, value) in [
        ("Speciality", item.speciality.as_deref().filter(|text| !text.is_empty())),
        ("Gender", gender),
        ("Works at", works_at),
    ] {
        if let Some(value) = value {
            let _ = write!(
                out,
                r#"<div class="result-card__fact"><dt>{term}</dt><dd>{}</dd></div>"#,
                escaped(value)
            );
        }
    }
    out.push_str(r#"</dl><ul class="care-modalities__list " aria-label="Care modalities">"#);
    for (label, drawing) in modalities(item) {
        out.push_str(r#"<li class="care-modalities__item">"#);
        icon(out, drawing, 14);
        let _ = write!(out, r#"<span>{label}</span></li>"#);
    }
    out.push_str("</ul>");
    if item.is_virtual_location {
        home_zip_form(out, index);
    }
    out.push_str(r#"<div class="result-card__actions">"#);
    // Signed out (card-action.ts `cardAction` with no member): clinics Select or join the
    // waitlist, everything else opens its details.
    let (kind, label) = match (item.entity.as_str(), item.new_patients) {
        ("location", true) => ("select", "Select"),
        ("location", false) => ("waitlist", "Join the waitlist"),
        _ => ("details", "View Details"),
    };
    if kind != "details" {
        let _ = write!(
            out,
            r#"<button type="button" class="{}" aria-label="View details of {full}">View Details</button>"#,
            button_class("secondary", "sm", None)
        );
    }
    let variant = if kind == "waitlist" { "quiet" } else { "primary" };
    let name = if kind == "details" {
        format!("View details of {full}")
    } else {
        format!("{label} {full}")
    };
    let _ = write!(
        out,
        r#"<button type="button" class="{}" aria-label="{name}">{label}</button></div></article>"#,
        button_class(variant, "sm", None)
    );
}

/// Class lists for what the app draws by width (use-media-query.ts `useIsMobile`): the server
/// paints both, and global.css shows each at its own width.
const PHONE_ONLY: &str = "first-paint-phone";
const WIDE_ONLY: &str = "first-paint-wide";

/// The whole first screen inside `#root`: the signed-out shell (app-shell.tsx; its footer comes
/// with the app, below the results), the page's top
/// (marketplace-page.tsx: title, employer, address box, Filter, the employer's banner), the
/// results panel and, on a wide screen, the map's placeholder; on a phone the View Map bar.
/// `data-painted` tells the server's markup from the app's (the app replaces all of it).
pub fn page(out: &mut String, screen: &Screen<'_>, answer: &Answer) {
    out.push_str(r##"<div class="app-shell__shell" data-painted="server"><a class="app-shell__skip" href="#main">Skip to content</a><a class="app-shell__skip first-paint-wide" href="#market-map">Skip to map</a><header class="app-shell__header">"##);
    out.push_str(r##"<a class="app-shell__brand controls__brandLink" aria-label="Nearcare marketplace" href="/marketplace" data-discover="true"><svg width="28" height="28" viewBox="0 0 32 32" aria-hidden="true"><rect width="32" height="32" rx="8" fill="currentColor"></rect><path d="M13 7h6v6h6v6h-6v6h-6v-6H7v-6h6z" fill="#fff"></path></svg><span>Nearcare</span></a>"##);
    out.push_str(r#"<nav class="app-shell__headerActions" aria-label="Account">"#);
    // The header's buttons are small on a phone.
    for (size, width) in [("md", WIDE_ONLY), ("sm", PHONE_ONLY)] {
        let _ = write!(
            out,
            r#"<a class="{}" href="/login" data-discover="true">Login</a><a class="{}" href="/register" data-discover="true">Get Started</a>"#,
            button_class("ghost", size, Some(width)),
            button_class("primary", size, Some(width))
        );
    }
    out.push_str(r#"</nav></header><div class="app-shell__body"><main id="main" class="app-shell__main" tabindex="-1"><div class="marketplace-page__page layout__pageFrame"><header class="marketplace-page__top"><h1 class="marketplace-page__title">Advanced Primary Care powered by the provider</h1><div class="marketplace-page__controls"><div class="marketplace-page__employer">"#);
    // The employer select (searchable-select.tsx) showing the link's employer.
    let _ = write!(
        out,
        r#"<div class="searchable-select__root"><span id="first-paint-employer" class="visually-hidden">Employer</span><button type="button" class="searchable-select__trigger " aria-haspopup="listbox" aria-expanded="false" aria-labelledby="first-paint-employer first-paint-employer-value"><span id="first-paint-employer-value" class="searchable-select__value">{}</span>"#,
        escaped(screen.company_name)
    );
    icon(out, icons::CHEVRON_DOWN, 18);
    out.push_str(r#"</button></div></div><div>"#);
    // The address box (address-search.tsx), holding the link's address.
    out.push_str(r#"<form class="address-search__form" role="search"><label for="first-paint-address" class="visually-hidden">Address, city or ZIP code</label><div class="address-search__field">"#);
    icon(out, icons::SEARCH, 18);
    let _ = write!(
        out,
        r#"<input id="first-paint-address" type="text" role="combobox" autocomplete="off" aria-expanded="false" aria-controls="first-paint-suggestions" aria-autocomplete="list" class="address-search__input" placeholder="Enter an address, city or ZIP code" maxlength="300" value="{}"><button type="button" class="address-search__locate" aria-label="Use my current location" title="Use my current location">"#,
        escaped(screen.address)
    );
    icon(out, icons::CROSSHAIR, 18);
    let _ = write!(
        out,
        r#"</button><ul id="first-paint-suggestions" role="listbox" aria-label="Suggestions" class="address-search__list" hidden=""></ul></div><button type="submit" class="{}">Search</button></form></div><button type="button" class="{}">"#,
        button_class("primary", "md", Some("address-search__submit")),
        button_class("secondary", "md", Some("marketplace-page__filterButton"))
    );
    icon(out, icons::FILTER, 18);
    out.push_str("Filter</button></div>");
    employer_banner(out, screen);
    filter_chips(out, screen.chips);
    out.push_str("</header>");
    // The phone's View Map bar (map-list-toggle.tsx, bottom-bar.tsx).
    let _ = write!(
        out,
        r#"<div class="bottom-bar__bar marketplace-page__viewToggle {PHONE_ONLY}"><button type="button" class="{}">"#,
        button_class("primary", "md", None)
    );
    icon(out, icons::MAP, 18);
    out.push_str(r#"View Map</button></div><div class="marketplace-page__layout"><div class="marketplace-page__listColumn" id="results-top">"#);
    results_panel(out, screen, answer);
    // The map's frame while its code loads (marketplace-page.tsx `MapPlaceholder`); not on a phone's list.
    let _ = write!(
        out,
        r#"</div><div class="marketplace-page__mapColumn {WIDE_ONLY}"><div class="marketplace-page__mapPlaceholder" id="market-map" tabindex="-1" aria-busy="true"><span class="visually-hidden" role="status">Loading map</span></div></div></div></div></main></div></div>"#
    );
}

/// One removable chip per active filter (filter-chips.tsx, chip.tsx); nothing when none is on.
fn filter_chips(out: &mut String, chips: &[String]) {
    if chips.is_empty() {
        return;
    }
    out.push_str(r#"<ul class="filter-chips__chips" aria-label="Active filters">"#);
    for chip in chips {
        let label = escaped(chip);
        let _ = write!(
            out,
            r#"<li><span class="chip__chip chip__primary"><span class="chip__label" title="{label}">{label}</span><button type="button" class="chip__remove" aria-label="Remove {label}">"#
        );
        icon(out, icons::CLOSE, 14);
        out.push_str("</button></span></li>");
    }
    out.push_str("</ul>");
}

/// Whether the employer pays (employer-banner.tsx `EmployerBanner`).
fn employer_banner(out: &mut String, screen: &Screen<'_>) {
    let name = escaped(screen.company_name);
    if screen.employer_active {
        out.push_str(r#"<div class="employer-banner__banner employer-banner__active" role="status" data-testid="employer-banner">"#);
        icon(out, icons::CHECK, 20);
        let _ = write!(
            out,
            "<p><strong>{name}</strong> is participating and will pay up to 100% of the benefit.</p></div>"
        );
    } else {
        out.push_str(r#"<div class="employer-banner__banner employer-banner__pending" role="status" data-testid="employer-banner">"#);
        icon(out, icons::MAIL, 20);
        let _ = write!(
            out,
            "<p><strong>{name}</strong> is not yet participating. Ask for the benefit (Notify Me when you register, or by choosing a clinic) and a representative will contact the company.</p></div>"
        );
    }
}

/// A virtual network's home ZIP question (result-card.tsx `HomeZipForm`), empty.
fn home_zip_form(out: &mut String, index: usize) {
    let hint = format!("first-paint-zip-hint-{index}");
    let _ = write!(
        out,
        r#"<form class="result-card__zipForm"><p id="{hint}">Serves several locations. Enter your home zip code to see if it serves you.</p><div class="result-card__zipRow"><input inputmode="numeric" autocomplete="postal-code" placeholder="Home zip code" aria-label="Home zip code" aria-describedby="{hint}" maxlength="10" value=""><button type="submit" class="{}" disabled="">Check</button></div><p role="status" class="result-card__zipYes" data-testid="home-zip-answer"></p></form>"#,
        button_class("secondary", "sm", None)
    );
}

/// What a tab shows on the current page, and how many pages it has (results-panel.tsx `pageContent`).
struct PageContent<'a> {
    clinics: &'a [Item],
    clinicians: &'a [Item],
    total_pages: u32,
    page: u32,
}

fn page_content<'a>(screen: &Screen<'_>, answer: &'a Answer) -> PageContent<'a> {
    let clinician_pages = answer.clinicians.len().div_ceil(PAGE_SIZE) as u32;
    let slice = |page: u32| {
        let start = (page.saturating_sub(1) as usize)
            .saturating_mul(PAGE_SIZE)
            .min(answer.clinicians.len());
        &answer.clinicians[start..(start + PAGE_SIZE).min(answer.clinicians.len())]
    };
    match screen.tab {
        Tab::Clinics => PageContent {
            clinics: &answer.clinics,
            clinicians: &[],
            total_pages: answer.total_pages,
            page: screen.page,
        },
        Tab::Providers => PageContent {
            clinics: &[],
            clinicians: slice(screen.provider_page),
            total_pages: clinician_pages,
            page: screen.provider_page,
        },
        Tab::All => PageContent {
            clinics: &answer.clinics,
            clinicians: slice(screen.page),
            total_pages: answer.total_pages.max(clinician_pages),
            page: screen.page,
        },
    }
}

/// A count with its thousands grouped, as format.ts `formatCount` writes it ("94,086").
fn grouped(count: u64) -> String {
    let digits = count.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// Whether the page would show cards for this answer (an empty page is the app's own screen).
pub fn has_cards(screen: &Screen<'_>, answer: &Answer) -> bool {
    let content = page_content(screen, answer);
    !content.clinics.is_empty() || !content.clinicians.is_empty()
}

/// The results panel with its cards (results-panel.tsx `ResultsPanel`, answered, not loading).
pub fn results_panel(out: &mut String, screen: &Screen<'_>, answer: &Answer) {
    let clinicians = answer.clinicians.len() as u64;
    out.push_str(r#"<div class="results-panel__panel" aria-busy="false"><div class="results-panel__header"><div role="tablist" aria-label="Result types" class="tabs__list">"#);
    for (tab, label, count) in [
        (Tab::All, "All", answer.total_results + clinicians),
        (Tab::Clinics, "Clinics", answer.total_results),
        (Tab::Providers, "Providers", clinicians),
    ] {
        let selected = tab == screen.tab;
        let key = tab.key();
        let _ = write!(
            out,
            r#"<button type="button" role="tab" id="results-tab-{key}" aria-selected="{selected}" aria-controls="results-panel-{key}" tabindex="{}" class="tabs__tab {}">{label}<span class="tabs__count">{}</span></button>"#,
            if selected { "0" } else { "-1" },
            if selected { "tabs__active" } else { "" },
            grouped(count)
        );
    }
    let _ = write!(
        out,
        r#"</div></div><p class="results-panel__summary" aria-live="polite">{} {} and {}{} within {} miles"#,
        grouped(answer.total_results),
        if answer.total_results == 1 { "clinic" } else { "clinics" },
        clinicians,
        if clinicians == 1 { " clinician" } else { " clinicians" },
        js_round(answer.radius_miles)
    );
    if !screen.address.is_empty() {
        out.push_str(" of ");
        escape_into(out, screen.address);
    }
    let key = screen.tab.key();
    let _ = write!(
        out,
        r#"</p><div role="tabpanel" id="results-panel-{key}" aria-labelledby="results-tab-{key}" class="results-panel__body">"#
    );

    let content = page_content(screen, answer);
    let mut index = 0;
    for (items, section, group) in [
        (content.clinics, "Clinics", "Clinics &amp; organizations"),
        (content.clinicians, "Clinicians", "Clinicians"),
    ] {
        if items.is_empty() {
            continue;
        }
        let _ = write!(out, r#"<section aria-label="{section}">"#);
        if screen.tab == Tab::All {
            let _ = write!(out, r#"<h3 class="results-panel__groupTitle">{group}</h3>"#);
        }
        out.push_str(r#"<ul class="results-panel__list">"#);
        for item in items {
            out.push_str("<li>");
            card(out, item, screen.today, index);
            index += 1;
            out.push_str("</li>");
        }
        out.push_str("</ul></section>");
    }
    pager(out, content.page, content.total_pages);
    if (1..=FIND_MORE_MAX_PAGES).contains(&content.total_pages) {
        let _ = write!(
            out,
            r#"<div class="results-panel__findMore"><div><strong>Find more providers</strong><p>Widen the distance in the filters, or move the map and choose Update Search.</p></div><button type="button" class="{}">"#,
            button_class("secondary", "sm", None)
        );
        icon(out, icons::FILTER, 16);
        out.push_str("Adjust filters</button></div>");
    }
    out.push_str("</div></div>");
}

/// Page buttons (pager.tsx `Pager`); nothing for a single page.
fn pager(out: &mut String, page: u32, total_pages: u32) {
    if total_pages <= 1 {
        return;
    }
    let count = VISIBLE_PAGE_BUTTONS.min(total_pages);
    let start = (i64::from(page) - i64::from((count - 1) / 2))
        .min(i64::from(total_pages - count + 1))
        .max(1) as u32;
    let disabled = |off: bool| if off { r#" disabled="""# } else { "" };
    let _ = write!(
        out,
        r#"<nav class="pager__pager" aria-label="Result pages"><button type="button" class="pager__step"{} aria-label="Previous page">"#,
        disabled(page <= 1)
    );
    icon(out, icons::CHEVRON_LEFT, 18);
    out.push_str("</button>");
    for number in start..start + count {
        let current = number == page;
        let _ = write!(
            out,
            r#"<button type="button" class="pager__page {}"{} aria-label="Page {number}">{number}</button>"#,
            if current { "pager__current" } else { "" },
            if current { r#" aria-current="page""# } else { "" }
        );
    }
    let _ = write!(
        out,
        r#"<button type="button" class="pager__step"{} aria-label="Next page">"#,
        disabled(page >= total_pages)
    );
    icon(out, icons::CHEVRON_RIGHT, 18);
    out.push_str("</button></nav>");
}

#[cfg(test)]
mod tests {
    use super::*;

    const TODAY: NaiveDate = NaiveDate::from_ymd_opt(2026, 11, 27).unwrap();

    /// A search answer as the search call writes it: a clinic whose names need escaping, a
    /// virtual network and a clinician.
    fn known_answer() -> Answer {
        serde_json::from_str(
            r#"{"clinics":[
                {"entity":"location","id":3,"locationId":31,"locationName":"LoDo <East>","name":"Front Range Direct Primary Care","organizationName":"Front Range","credentials":"","address":"1600 Wynkoop Street, Suite 200","city":"Denver","state":"CO","zipCode":"80202","logo":"","coordinates":{"lat":39.75,"lng":-105.0},"distance":0.085,"gender":null,"newPatients":true,"isVirtualLocation":false,"homeCare":false,"careModality":{"atClinic":true,"atWork":false,"inHome":false,"phone":true,"textChat":false,"virtual":false},"speciality":"Family Medicine","worksAt":null,"category":"","services":[],"lastVerified":"2026-11-01","favorite":false,"waitlisted":false},
                {"entity":"location","id":4,"locationId":41,"locationName":"Everywhere Care","name":"Everywhere Care","credentials":"","address":"","city":"","state":"","zipCode":"","logo":"https://example.org/logo.png","coordinates":{"lat":0,"lng":0},"distance":null,"gender":null,"newPatients":false,"isVirtualLocation":true,"homeCare":false,"careModality":{"atClinic":false,"atWork":false,"inHome":false,"phone":false,"textChat":false,"virtual":false},"speciality":"","category":"","services":[],"lastVerified":null}
              ],
              "clinicians":[
                {"entity":"provider","id":9,"locationId":31,"locationName":"LoDo <East>","name":"Ada \"Doc\" O'Neil","credentials":"MD","address":"1600 Wynkoop Street","city":"Denver","state":"CO","zipCode":"80202","logo":"","coordinates":{"lat":39.75,"lng":-105.0},"distance":1.125,"gender":"F","newPatients":true,"isVirtualLocation":false,"homeCare":false,"careModality":null,"speciality":"","worksAt":"Front Range Direct Primary Care","category":"","services":[]}
              ],
              "totalPages":1,"currentPage":1,"totalResults":2,"origin":{"lat":39.75,"lng":-105.0},"radiusMiles":29.5}"#,
        )
        .unwrap()
    }

    fn screen(address: &str) -> Screen<'_> {
        Screen {
            company_name: "Acme & Sons",
            employer_active: true,
            address,
            page: 1,
            provider_page: 1,
            tab: Tab::All,
            chips: &[],
            today: TODAY,
        }
    }

    #[test]
    fn paints_a_clinic_card_as_the_app_does() {
        let answer = known_answer();
        let mut out = String::new();
        card(&mut out, &answer.clinics[0], TODAY, 0);
        let expected = concat!(
            r#"<article class="result-card__card" aria-label="Front Range Direct Primary Care — LoDo &lt;East&gt;" data-testid="result-card" data-entity="location" data-location-id="31">"#,
            r#"<div class="result-card__top"><span class="logo-avatar__avatar " style="width: 48px; height: 48px; font-size: 17px;"><span aria-hidden="true" data-testid="logo-initials">FC</span></span>"#,
            r#"<div class="result-card__heading"><span class="result-card__labels"><span class="result-card__label" data-testid="entity-label" style="color: #0b3d91; border-color: #0b3d91;">Clinic &amp; Organization</span></span>"#,
            r#"<h3 class="result-card__name" title="Front Range Direct Primary Care — LoDo &lt;East&gt;"><button type="button" class="result-card__nameLink">Front Range Direct P...<span class="visually-hidden"> — </span><span class="result-card__place" data-testid="location-name">LoDo &lt;East&gt;</span></button></h3></div>"#,
            r#"<span class="result-card__distance" data-testid="distance">0.09 miles</span></div>"#,
            r#"<dl class="result-card__facts"><div class="result-card__fact"><dt class="visually-hidden">Address</dt><dd title="1600 Wynkoop Street, Suite 200, Denver, CO 80202">"#,
        );
        assert!(out.starts_with(expected), "{out}");
        for part in [
            r#"<span data-testid="address">1600 Wynkoop Street...</span><span class="result-card__muted"> · Denver, CO 80202</span></dd></div>"#,
            r#"<dd class="result-card__accepting"><span class="result-card__dot" aria-hidden="true"></span>Accepting new patients</dd>"#,
            r#"<div class="result-card__fact"><dt>Speciality</dt><dd>Family Medicine</dd></div></dl>"#,
            r#"<span>At-clinic</span></li><li class="care-modalities__item">"#,
            r#"<span>Phone</span></li></ul>"#,
            r#"<div class="result-card__actions"><button type="button" class="button__button button__secondary button__sm" aria-label="View details of Front Range Direct Primary Care — LoDo &lt;East&gt;">View Details</button><button type="button" class="button__button button__primary button__sm" aria-label="Select Front Range Direct Primary Care — LoDo &lt;East&gt;">Select</button></div></article>"#,
        ] {
            assert!(out.contains(part), "{part}\nnot in\n{out}");
        }
        // Confirmed 26 days ago: no "Not verified recently".
        assert!(!out.contains("not-verified"));
    }

    #[test]
    fn paints_a_virtual_network_and_a_clinician() {
        let answer = known_answer();
        let mut out = String::new();
        card(&mut out, &answer.clinics[1], TODAY, 1);
        for part in [
            r#"<img src="https://example.org/logo.png" alt="" loading="lazy" width="48" height="48">"#,
            r#"style="color: #6a3fa0; border-color: #6a3fa0;">Virtual Network</span>"#,
            r#"<button type="button" class="result-card__nameLink">Everywhere Care</button>"#,
            r#"<span class="result-card__distance">Virtual</span>"#,
            r#"<dd class="result-card__stale" data-testid="not-verified">Not verified recently</dd>"#,
            r#"aria-describedby="first-paint-zip-hint-1""#,
            r#"aria-label="Join the waitlist Everywhere Care">Join the waitlist</button>"#,
            r#"class="button__button button__quiet button__sm""#,
        ] {
            assert!(out.contains(part), "{part}\nnot in\n{out}");
        }
        // No address, no place: no address line. A virtual network lists In-home, not At-clinic.
        assert!(!out.contains(r#"data-testid="address""#) && !out.contains("At-clinic") && out.contains("In-home"));

        let mut out = String::new();
        card(&mut out, &answer.clinicians[0], TODAY, 2);
        for part in [
            r#"aria-label="Ada &quot;Doc&quot; O&#39;Neil" data-testid="result-card" data-entity="provider""#,
            r#"<span class="logo-avatar__avatar logo-avatar__round""#,
            r#"data-testid="logo-initials">AN</span>"#,
            r#"<p class="result-card__credentials">MD</p>"#,
            r#"data-testid="distance">1.13 miles</span>"#,
            r#"<dt>Gender</dt><dd>Female</dd>"#,
            r#"<dt>Works at</dt><dd>Front Range Direct Primary Care</dd>"#,
            r#"<div class="result-card__actions"><button type="button" class="button__button button__primary button__sm" aria-label="View details of Ada &quot;Doc&quot; O&#39;Neil">View Details</button></div>"#,
        ] {
            assert!(out.contains(part), "{part}\nnot in\n{out}");
        }
        // Clinicians have no location name of their own on the card, and no "Not verified" when the server does not say.
        assert!(!out.contains("location-name") && !out.contains("not-verified"));
    }

    #[test]
    fn paints_the_results_panel_with_its_tabs_and_summary() {
        let answer = known_answer();
        let mut out = String::new();
        results_panel(&mut out, &screen("Denver <CO>"), &answer);
        for part in [
            r#"<button type="button" role="tab" id="results-tab-all" aria-selected="true" aria-controls="results-panel-all" tabindex="0" class="tabs__tab tabs__active">All<span class="tabs__count">3</span></button>"#,
            r#"id="results-tab-providers" aria-selected="false" aria-controls="results-panel-providers" tabindex="-1" class="tabs__tab ">Providers<span class="tabs__count">1</span>"#,
            r#"<p class="results-panel__summary" aria-live="polite">2 clinics and 1 clinician within 30 miles of Denver &lt;CO&gt;</p>"#,
            r#"<section aria-label="Clinics"><h3 class="results-panel__groupTitle">Clinics &amp; organizations</h3><ul class="results-panel__list"><li><article"#,
            r#"<section aria-label="Clinicians"><h3 class="results-panel__groupTitle">Clinicians</h3>"#,
            r#"<div class="results-panel__findMore"><div><strong>Find more providers</strong>"#,
        ] {
            assert!(out.contains(part), "{part}\nnot in\n{out}");
        }
        assert_eq!(out.matches(r#"data-testid="result-card""#).count(), 3);
        // One page: no pager.
        assert!(!out.contains("pager__pager"));

        // The Providers tab lists only the clinicians, without group titles; the page's banner names the employer.
        let mut out = String::new();
        page(
            &mut out,
            &Screen {
                tab: Tab::Providers,
                ..screen("")
            },
            &answer,
        );
        assert_eq!(out.matches(r#"data-testid="result-card""#).count(), 1);
        assert!(!out.contains("results-panel__groupTitle") && out.contains(r#"id="results-panel-providers""#));
        assert!(out.contains("<p><strong>Acme &amp; Sons</strong> is participating"));
        assert!(out.contains(r#"within 30 miles</p>"#));
        assert!(!out.contains("filter-chips__chips"));

        let chips = ["Name: <b>".to_owned(), "Female".to_owned()];
        let mut out = String::new();
        page(
            &mut out,
            &Screen {
                chips: &chips,
                ..screen("")
            },
            &answer,
        );
        assert!(out.contains(r#"is participating and will pay up to 100% of the benefit.</p></div><ul class="filter-chips__chips" aria-label="Active filters"><li><span class="chip__chip chip__primary"><span class="chip__label" title="Name: &lt;b&gt;">Name: &lt;b&gt;</span><button type="button" class="chip__remove" aria-label="Remove Name: &lt;b&gt;"><svg width="14""#), "{out}");
        assert_eq!(out.matches(r#"class="chip__remove""#).count(), 2);
    }

    #[test]
    fn pages_as_the_app_pages() {
        let mut out = String::new();
        pager(&mut out, 5, 9);
        let pages: Vec<&str> = out
            .match_indices(r#"aria-label="Page "#)
            .map(|(at, _)| &out[at + 17..at + 18])
            .collect();
        assert_eq!(pages, ["4", "5", "6", "7"]);
        assert!(
            out.contains(r#"class="pager__page pager__current" aria-current="page" aria-label="Page 5">5</button>"#)
        );
        let mut out = String::new();
        pager(&mut out, 1, 2);
        assert!(out.contains(r#"class="pager__step" disabled="" aria-label="Previous page""#));
        assert!(out.contains(r#"<button type="button" class="pager__step" aria-label="Next page">"#));
    }

    #[test]
    fn distances_round_as_javascript_to_fixed_does() {
        // 1.125 and 2.375 are exact binary fractions: JavaScript rounds the tie up.
        for (value, text) in [
            (1.125, "1.13"),
            (2.375, "2.38"),
            (0.09, "0.09"),
            (0.005, "0.01"),
            (9.995, "9.99"),
            (99.999, "100.00"),
            (0.0, "0.00"),
            (12.3456, "12.35"),
        ] {
            assert_eq!(to_fixed_2(value), text, "{value}");
        }
    }

    #[test]
    fn counts_are_grouped_as_format_count_groups_them() {
        for (count, text) in [
            (0, "0"),
            (999, "999"),
            (1_050, "1,050"),
            (94_086, "94,086"),
            (100_000, "100,000"),
            (1_000_000, "1,000,000"),
        ] {
            assert_eq!(grouped(count), text, "{count}");
        }
    }

    #[test]
    fn names_are_cut_as_the_page_cuts_them() {
        assert_eq!(
            truncate("  Front Range Direct Primary Care ", 20),
            "Front Range Direct P..."
        );
        assert_eq!(truncate("Mile High Clinic", 20), "Mile High Clinic");
        assert_eq!(truncate("Front Range Direct  Primary", 19), "Front Range Direct...");
        assert_eq!(initials("Front Range DPC"), "FD");
        assert_eq!(initials("Ångström"), "ÅN");
        assert_eq!(initials("—"), "?");
    }
}
