//! A marketplace search link's first screen, painted by the server (issue 26): for
//! `/marketplace?company=…&location=…` (and the link's other parameters) the server resolves
//! what the app would ask first (the company alias, the address's place, the page's first
//! search), in-process from the snapshot, and answers `index.html` with the screen's markup in
//! `#root` and the three answers as JSON, which the app puts in its query cache instead of
//! asking (web/src/app/first-screen.ts). On a throttled phone the first result card then comes
//! with the HTML rather than after the scripts, their evaluation, three calls and React's
//! render. Anything the server cannot paint exactly (an unknown alias or place, language and
//! accessibility filters, the phone's map view, a page with no cards) answers the plain
//! `index.html`.

mod markup;

use std::path::Path;

use axum::http::{HeaderMap, header};
use chrono::Utc;
use domain::LatLng;
use serde_json::{Value, json};

use crate::routes::geo::{address_accepted, geocode_answer};
use crate::routes::market::{SearchQuery, alias_answer, search_json};
use crate::state::AppState;

pub use markup::escape_into;

/// The path of the marketplace (web/src/config/paths.ts).
pub const MARKETPLACE_PATH: &str = "/marketplace";

/// Where the markup goes in index.html, and the id of the answers' element (first-screen.ts
/// `PAINTED_ANSWERS_ID`).
const ROOT: &str = r#"<div id="root"></div>"#;
const ANSWERS_ID: &str = "first-screen-answers";

/// The link's parameters that show another screen (the phone's map, a member choosing a
/// provider), or filters whose chips the app names from another call (languages,
/// accessibility) or that need a member (favourites): such links get the plain shell.
const UNPAINTED_PARAMETERS: [&str; 5] = ["view", "selectProvider", "favorites", "language", "access"];

/// The filter slider's default position (filters.ts `DEFAULT_DISTANCE`) and its last.
const DEFAULT_DISTANCE: u32 = 5;
const MAX_DISTANCE_POSITION: u32 = 9;
/// The name filter's limits (filters.ts `withinNameLimits`): 100 characters, 8 words.
const NAME_FILTER_MAX_CHARS: usize = 100;
const NAME_FILTER_MAX_WORDS: usize = 8;

/// The filters a link names (search-url.ts `decodeFilters`), those the server paints.
#[derive(Debug, Clone, PartialEq, Default)]
struct Filters {
    search_by_name: String,
    new_patients: bool,
    pediatrics: bool,
    search_distance: u32,
    organisations: Vec<String>,
    credentials: Vec<String>,
    specialities: Vec<String>,
    genders: Vec<String>,
}

/// Every value of a parameter, trimmed, without empties and repeats, in order (search-url.ts `unique`).
fn unique(params: &[(String, String)], name: &str) -> Vec<String> {
    let mut values: Vec<String> = Vec::new();
    for (_, value) in params.iter().filter(|(key, _)| key == name) {
        let value = value.trim();
        if !value.is_empty() && !values.iter().any(|kept| kept == value) {
            values.push(value.to_owned());
        }
    }
    values
}

/// filters.ts `withinNameLimits` for ASCII text (where JavaScript's UTF-16 units, `\p{L}` and
/// `\p{N}` are plain bytes, letters and digits); None for other text, left to the app.
fn within_name_limits(text: &str) -> Option<String> {
    if !text.is_ascii() {
        return None;
    }
    let cut = &text[..text.len().min(NAME_FILTER_MAX_CHARS)];
    let mut words = 0;
    let mut in_word = false;
    for (at, byte) in cut.bytes().enumerate() {
        let word_byte = byte.is_ascii_alphanumeric();
        if in_word && !word_byte && words == NAME_FILTER_MAX_WORDS {
            return Some(cut[..at].to_owned());
        }
        if word_byte && !in_word {
            words += 1;
        }
        in_word = word_byte;
    }
    Some(cut.to_owned())
}

impl Filters {
    fn parse(params: &[(String, String)]) -> Option<Self> {
        let distance = match first(params, "distance") {
            Some(text) if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) => text
                .parse::<u32>()
                .ok()
                .filter(|position| *position <= MAX_DISTANCE_POSITION)
                .unwrap_or(DEFAULT_DISTANCE),
            _ => DEFAULT_DISTANCE,
        };
        let mut genders = unique(params, "gender");
        genders.retain(|gender| gender == "F" || gender == "M");
        Some(Self {
            search_by_name: within_name_limits(first(params, "name").unwrap_or(""))?,
            new_patients: first(params, "newPatients") == Some("1"),
            pediatrics: first(params, "pediatrics") == Some("1"),
            search_distance: distance,
            organisations: unique(params, "org"),
            credentials: unique(params, "credential"),
            specialities: unique(params, "speciality"),
            genders,
        })
    }

    /// One chip a filter that is on, in the page's order (filters.ts `activeFilterChips`).
    fn chips(&self) -> Vec<String> {
        let mut chips = Vec::new();
        let name = self.search_by_name.trim();
        if !name.is_empty() {
            chips.push(format!("Name: {name}"));
        }
        if self.search_distance != DEFAULT_DISTANCE {
            let miles = if self.search_distance == 0 {
                100
            } else {
                5 + 5 * self.search_distance
            };
            chips.push(format!("Within {miles} miles"));
        }
        if self.new_patients {
            chips.push("Accepting new patients".into());
        }
        if self.pediatrics {
            chips.push("Pediatrics".into());
        }
        chips.extend(
            self.organisations
                .iter()
                .chain(&self.credentials)
                .chain(&self.specialities)
                .cloned(),
        );
        chips.extend(
            self.genders
                .iter()
                .map(|gender| if gender == "F" { "Female".into() } else { "Male".into() }),
        );
        chips
    }

    /// `search.filters` as the page sends them (search-filters-body.ts `searchFiltersBody`).
    fn body(&self, employer: &Value, user_zip_code: Option<&str>) -> Value {
        let mut filters = json!({
            "newPatients": self.new_patients,
            "pediatrics": self.pediatrics,
            "selectedCredentials": self.credentials,
            "selectedSpecialities": self.specialities,
            "selectedGenders": self.genders,
            "selectedGroupAndOrganizations": self.organisations,
            "selectedLanguages": [],
            "selectedAccessibility": [],
            "searchDistance": self.search_distance,
            "serviceTypes": if self.pediatrics { vec!["BH"] } else { vec![] },
            "employer": employer,
        });
        let name = self.search_by_name.trim();
        if !name.is_empty() {
            filters["searchByName"] = json!(name);
        }
        if let Some(zip) = user_zip_code {
            filters["userZipCode"] = json!(zip);
        }
        filters
    }
}

/// The app's access token cookie (web/src/lib/session.ts `TOKEN_COOKIE`).
const TOKEN_COOKIE: &str = "token";

/// Whether the visitor is signed in (a token cookie with a value): a member's marketplace
/// depends on the member, and is left to the app.
pub fn signed_in(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|cookies| cookies.split(';'))
        .any(|cookie| {
            cookie
                .trim()
                .split_once('=')
                .is_some_and(|(name, value)| name == TOKEN_COOKIE && !value.is_empty())
        })
}

/// A company link as the app reads it (search-url.ts `decodeSearchState`, first-screen.ts).
#[derive(Debug, Clone, PartialEq)]
struct Link {
    company: String,
    address: String,
    origin: Option<LatLng>,
    page: u32,
    provider_page: u32,
    tab: markup::Tab,
    user_zip_code: Option<String>,
    filters: Filters,
}

/// The first value of a parameter, as `URLSearchParams.get` gives it.
fn first<'a>(params: &'a [(String, String)], name: &str) -> Option<&'a str> {
    params
        .iter()
        .find(|(key, _)| key == name)
        .map(|(_, value)| value.as_str())
}

/// search-url.ts `positiveInteger`: digits only, 1 or more, else the default (1).
fn positive_page(text: Option<&str>) -> Option<u32> {
    match text {
        Some(text) if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) => match text.parse::<u64>() {
            Ok(0) => Some(1),
            Ok(value) => u32::try_from(value).ok(),
            // Beyond any integer the page takes: its default, as the page reads it.
            Err(_) => Some(1),
        },
        _ => Some(1),
    }
}

impl Link {
    /// The link, or None when the server should not paint it.
    fn parse(query: &str) -> Option<Self> {
        let params: Vec<(String, String)> = form_urlencoded::parse(query.as_bytes())
            .map(|(k, v)| (k.into_owned(), v.into_owned()))
            .collect();
        if params
            .iter()
            .any(|(key, _)| UNPAINTED_PARAMETERS.contains(&key.as_str()))
        {
            return None;
        }
        let company = first(&params, "company")
            .filter(|company| !company.trim().is_empty())?
            .to_owned();
        let origin = match (first(&params, "lat"), first(&params, "lng")) {
            (Some(lat), Some(lng)) => {
                // What JavaScript's Number() reads the same way; anything else is left to the app.
                let lat: f64 = lat.parse().ok()?;
                let lng: f64 = lng.parse().ok()?;
                Some(LatLng::new(lat, lng)?)
            }
            _ => None,
        };
        let address = first(&params, "location").map(str::trim).unwrap_or("").to_owned();
        if origin.is_none() && address.is_empty() {
            return None;
        }
        let tab = first(&params, "tab")
            .and_then(markup::Tab::parse)
            .unwrap_or(markup::Tab::All);
        let user_zip_code = first(&params, "zip")
            .map(str::trim)
            .filter(|zip| !zip.is_empty())
            .map(str::to_owned);
        Some(Self {
            company,
            address,
            origin,
            page: positive_page(first(&params, "page"))?,
            provider_page: positive_page(first(&params, "providerPage"))?,
            tab,
            user_zip_code,
            filters: Filters::parse(&params)?,
        })
    }
}

/// A place as a link keeps it (search-url.ts `asLinked`): 5 decimals, halves rounded up as
/// JavaScript's Math.round does.
fn as_linked(value: f64) -> f64 {
    let scaled = value * 1e5;
    let floor = scaled.floor();
    let rounded = if scaled - floor >= 0.5 { floor + 1.0 } else { floor };
    rounded / 1e5
}

/// What the server answered for a link: the three answers the app would have asked.
struct Answers {
    alias: Value,
    place: Option<Value>,
    search: Vec<u8>,
}

/// `index.html` with the link's first screen painted in it, or None when the link is not one
/// the server paints (the caller serves the plain shell). `shell` is the page with its
/// stylesheets already written in ([`inline_stylesheets`], done once per build).
pub async fn paint(state: &AppState, query: &str, shell: &str) -> Option<String> {
    if !shell.contains(ROOT) {
        return None;
    }
    let link = Link::parse(query)?;
    let answers = resolve(state, &link).await?;
    let answer: markup::Answer = serde_json::from_slice(&answers.search).ok()?;
    let company_name = answers.alias["companyName"].as_str()?;
    let chips = link.filters.chips();
    let screen = markup::Screen {
        company_name,
        employer_active: answers.alias["status"] == "active",
        address: &link.address,
        page: link.page,
        provider_page: link.provider_page,
        tab: link.tab,
        chips: &chips,
        today: Utc::now().date_naive(),
    };
    if !markup::has_cards(&screen, &answer) {
        return None;
    }
    let mut painted = String::with_capacity(shell.len() + 32 * 1024);
    painted.push_str(r#"<div id="root">"#);
    markup::page(&mut painted, &screen, &answer);
    painted.push_str("</div>");
    embed_answers(&mut painted, query, &answers);
    Some(shell.replacen(ROOT, &painted, 1))
}

/// The most stylesheet text written into a painted page (the build's first-screen CSS is 31 KB).
const MAX_INLINE_CSS: usize = 96 * 1024;

/// The page's stylesheet links (`<link rel="stylesheet" crossorigin href="/assets/…css">`, as Vite
/// writes them) replaced by `<style>` elements holding the files: the markup can paint when the
/// HTML is in, instead of a round trip later, behind the scripts on the phone's few connections
/// (first paint 0.4-0.6 s instead of 1.4 s on the throttled phone). A file that cannot be read,
/// holds `</style`, or would pass the limit keeps its link.
pub async fn inline_stylesheets(mut page: String, dist: &Path) -> String {
    const LINK: &str = r#"<link rel="stylesheet" crossorigin href="/assets/"#;
    let mut inlined = 0;
    let mut from = 0;
    while let Some(found) = page[from..].find(LINK) {
        let start = from + found;
        let Some(length) = page[start..].find('>') else { break };
        let end = start + length + 1;
        let tag = &page[start..end];
        let name = tag[LINK.len()..].split('"').next().unwrap_or("");
        let css = match name
            .strip_suffix(".css")
            .filter(|stem| !stem.contains(['/', '\\']) && !stem.contains(".."))
        {
            Some(_) => tokio::fs::read_to_string(dist.join("assets").join(name)).await.ok(),
            None => None,
        };
        match css.filter(|css| inlined + css.len() <= MAX_INLINE_CSS && !css.to_ascii_lowercase().contains("</style")) {
            Some(css) => {
                inlined += css.len();
                let style = format!("<style>{css}</style>");
                page.replace_range(start..end, &style);
                from = start + style.len();
            }
            None => from = end,
        }
    }
    page
}

/// The alias, the place and the page's own search, as the app asks them (first-screen.ts
/// `pageSearchParams`, search-market.ts, search-filters-body.ts with the default filters).
async fn resolve(state: &AppState, link: &Link) -> Option<Answers> {
    let alias = alias_answer(&*state.snapshot().ok()?, &link.company)?;
    let (origin, place) = match link.origin {
        Some(origin) => (origin, None),
        None => {
            if !address_accepted(&link.address) {
                return None;
            }
            let found = state.geocoder.geocode(&link.address).await?;
            let origin = LatLng::new(as_linked(found.position.lat), as_linked(found.position.lng))?;
            (origin, Some(geocode_answer(&found)))
        }
    };
    let query = SearchQuery {
        page: Some(link.page),
        limit: Some(markup::PAGE_SIZE as u32),
        lat: Some(origin.lat),
        lng: Some(origin.lng),
        company: alias["alias"].as_str().map(str::to_owned),
        user_zip_code: link.user_zip_code.clone(),
    };
    let filters = link.filters.body(&alias["companyName"], link.user_zip_code.as_deref());
    let body = match json!({ "search": { "filters": filters } }) {
        Value::Object(body) => body,
        _ => return None,
    };
    let search = search_json(state, query, body, None).ok()?;
    Some(Answers { alias, place, search })
}

/// The answers as the app reads them (first-screen.ts `PaintedAnswers`), in a JSON script
/// element after `#root`. `<` is written `\u003c` so no text in them can close the element.
fn embed_answers(out: &mut String, query: &str, answers: &Answers) {
    let link = if query.is_empty() {
        String::new()
    } else {
        format!("?{query}")
    };
    let mut json = Vec::with_capacity(answers.search.len() + 1024);
    json.extend_from_slice(b"{\"link\":");
    json.extend(serde_json::to_vec(&link).unwrap_or_default());
    json.extend_from_slice(b",\"alias\":");
    json.extend(serde_json::to_vec(&answers.alias).unwrap_or_default());
    json.extend_from_slice(b",\"place\":");
    json.extend(serde_json::to_vec(&answers.place).unwrap_or_default());
    json.extend_from_slice(b",\"search\":");
    json.extend_from_slice(&answers.search);
    json.push(b'}');
    let _ = std::fmt::Write::write_fmt(
        out,
        format_args!(r#"<script type="application/json" id="{ANSWERS_ID}">"#),
    );
    out.push_str(&String::from_utf8_lossy(&json).replace('<', "\\u003c"));
    out.push_str("</script>");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_company_link_as_the_page_does() {
        let link = Link::parse("company=acme&location=+80202+&page=2&tab=clinics&zip=%2080301").unwrap();
        assert_eq!(link.company, "acme");
        assert_eq!(link.address, "80202");
        assert_eq!((link.page, link.provider_page, link.tab), (2, 1, markup::Tab::Clinics));
        assert_eq!(link.user_zip_code.as_deref(), Some("80301"));
        // Malformed pages and tabs are the defaults, as in the page.
        let link = Link::parse("company=acme&lat=39.75153&lng=-104.99767&page=0&providerPage=x&tab=maps").unwrap();
        assert_eq!(link.origin, LatLng::new(39.75153, -104.99767));
        assert_eq!((link.page, link.provider_page, link.tab), (1, 1, markup::Tab::All));
    }

    #[test]
    fn reads_a_links_filters_as_the_page_does() {
        let link = Link::parse("company=acme&location=80202&name=+front+range+&distance=0&newPatients=1&pediatrics=true&org=B&org=+A+&org=B&org=&gender=F&gender=X&credential=MD").unwrap();
        let filters = &link.filters;
        assert_eq!(filters.search_by_name, " front range ");
        assert_eq!(
            (filters.new_patients, filters.pediatrics, filters.search_distance),
            (true, false, 0)
        );
        assert_eq!(filters.organisations, ["B", "A"]);
        assert_eq!(filters.genders, ["F"]);
        assert_eq!(
            filters.chips(),
            [
                "Name: front range",
                "Within 100 miles",
                "Accepting new patients",
                "B",
                "A",
                "MD",
                "Female"
            ]
        );
        let body = filters.body(&json!("Acme"), Some("80301"));
        assert_eq!(body["searchByName"], "front range");
        assert_eq!(body["serviceTypes"], json!([]));
        assert_eq!(body["selectedGroupAndOrganizations"], json!(["B", "A"]));
        assert_eq!(
            (&body["employer"], &body["userZipCode"]),
            (&json!("Acme"), &json!("80301"))
        );
        // Out of range or malformed: the default distance, no chip.
        for distance in ["10", "-1", "x", ""] {
            let link = Link::parse(&format!("company=acme&location=80202&distance={distance}")).unwrap();
            assert_eq!(link.filters.search_distance, 5);
            assert!(link.filters.chips().is_empty());
            assert!(link.filters.body(&json!("Acme"), None).get("searchByName").is_none());
        }
    }

    #[test]
    fn cuts_a_name_filter_as_the_page_does() {
        assert_eq!(within_name_limits("a b c d e f g h i j").unwrap(), "a b c d e f g h");
        assert_eq!(within_name_limits("one, two").unwrap(), "one, two");
        assert_eq!(within_name_limits(&"x".repeat(120)).unwrap().len(), 100);
        assert_eq!(within_name_limits("Zoë"), None);
    }

    #[test]
    fn leaves_links_it_cannot_paint_to_the_app() {
        for query in [
            "location=80202",
            "company=%20&location=80202",
            "company=acme",
            "company=acme&location=80202&language=es",
            "company=acme&location=80202&favorites=1",
            "company=acme&location=80202&name=Jos%C3%A9",
            "company=acme&location=80202&view=map",
            "company=acme&location=80202&selectProvider=1",
            "company=acme&lat=91&lng=0",
            "company=acme&lat=abc&lng=0&location=80202",
        ] {
            assert_eq!(Link::parse(query), None, "{query}");
        }
    }

    #[test]
    fn tells_a_signed_in_visit_by_its_token_cookie() {
        let with = |cookie: &str| {
            let mut headers = HeaderMap::new();
            headers.insert(header::COOKIE, cookie.parse().unwrap());
            signed_in(&headers)
        };
        assert!(with("theme=dark; token=abc.def"));
        assert!(!with("token=; theme=dark") && !with("tokens=abc") && !signed_in(&HeaderMap::new()));
    }

    #[test]
    fn embeds_the_answers_so_no_text_in_them_closes_the_element() {
        let answers = Answers {
            alias: json!({"companyName": "Acme </script><script>alert(1)</script>", "alias": "acme"}),
            place: None,
            search: br#"{"clinics":[{"name":"<b>"}]}"#.to_vec(),
        };
        let mut out = String::new();
        embed_answers(&mut out, "company=acme&location=80202", &answers);
        let body = out
            .strip_prefix(r#"<script type="application/json" id="first-screen-answers">"#)
            .unwrap()
            .strip_suffix("</script>")
            .unwrap();
        assert!(!body.contains('<'), "{body}");
        let read: Value = serde_json::from_str(body).unwrap();
        assert_eq!(read["link"], "?company=acme&location=80202");
        assert_eq!(read["alias"]["companyName"], "Acme </script><script>alert(1)</script>");
        assert_eq!(read["place"], Value::Null);
        assert_eq!(read["search"]["clinics"][0]["name"], "<b>");
    }

    #[tokio::test]
    async fn writes_the_stylesheets_into_the_page() {
        let dist = std::env::temp_dir().join(format!("first-paint-css-{}", std::process::id()));
        std::fs::create_dir_all(dist.join("assets")).unwrap();
        std::fs::write(dist.join("assets/index-A1.css"), ".card{color:red}").unwrap();
        std::fs::write(dist.join("assets/evil-B2.css"), "a{}</style><script>alert(1)</script>").unwrap();
        let page = concat!(
            r#"<head><link rel="stylesheet" crossorigin href="/assets/index-A1.css">"#,
            r#"<link rel="stylesheet" crossorigin href="/assets/evil-B2.css">"#,
            r#"<link rel="stylesheet" crossorigin href="/assets/missing-C3.css">"#,
            r#"<link rel="stylesheet" crossorigin href="/assets/../../etc/passwd.css"></head>"#,
        );
        let inlined = inline_stylesheets(page.to_owned(), &dist).await;
        std::fs::remove_dir_all(&dist).unwrap();
        assert_eq!(
            inlined,
            concat!(
                "<head><style>.card{color:red}</style>",
                r#"<link rel="stylesheet" crossorigin href="/assets/evil-B2.css">"#,
                r#"<link rel="stylesheet" crossorigin href="/assets/missing-C3.css">"#,
                r#"<link rel="stylesheet" crossorigin href="/assets/../../etc/passwd.css"></head>"#,
            )
        );
    }

    #[test]
    fn rounds_a_place_as_the_link_keeps_it() {
        assert_eq!(as_linked(39.751534), 39.75153);
        assert_eq!(as_linked(-104.997671), -104.99767);
        assert_eq!(as_linked(-104.997675), -104.99767);
    }
}
