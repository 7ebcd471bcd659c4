//! A clinic's opening hours as FHIR's `Location.hoursOfOperation` and back
//! (docs/fhir-contract.md, "Listing facts"). Days that open and close at the same times share
//! one entry; a day open around the clock is `allDay`; a day with no entry is closed. FHIR's
//! `time` stops at 23:59:59, so a range that closes at midnight (24:00) is written to close at
//! 23:59:59 and read back as midnight.

use domain::listing::{ClockTime, OpeningRange, Weekday, WeeklyHours};
use serde_json::{Map, Value, json};

/// The closing time written for a range that closes at midnight.
const END_OF_DAY_TIME: &str = "23:59:59";

fn fhir_time(time: ClockTime) -> String {
    if time == ClockTime::END_OF_DAY {
        END_OF_DAY_TIME.to_owned()
    } else {
        format!("{time}:00")
    }
}

/// The hours as `hoursOfOperation` entries: one per distinct (opens, closes), its days in week
/// order, entries in the order their first day and time come in the week.
pub fn hours_of_operation(hours: &WeeklyHours) -> Vec<Value> {
    let mut groups: Vec<(ClockTime, ClockTime, Vec<Weekday>)> = Vec::new();
    for day in Weekday::ALL {
        for range in hours.on(day) {
            match groups
                .iter_mut()
                .find(|(opens, closes, _)| *opens == range.opens && *closes == range.closes)
            {
                Some((_, _, days)) => days.push(day),
                None => groups.push((range.opens, range.closes, vec![day])),
            }
        }
    }
    groups
        .into_iter()
        .map(|(opens, closes, days)| {
            let days: Vec<&str> = days.into_iter().map(Weekday::code).collect();
            if opens == ClockTime::MIDNIGHT && closes == ClockTime::END_OF_DAY {
                json!({ "daysOfWeek": days, "allDay": true })
            } else {
                json!({ "daysOfWeek": days, "openingTime": fhir_time(opens), "closingTime": fhir_time(closes) })
            }
        })
        .collect()
}

/// A problem in `hoursOfOperation`: the element's path and what is wrong.
pub type HoursProblem = (String, String);

/// Reads a FHIR `time` on the minute (`08:30:00`), or 23:59:59 as midnight when closing.
fn read_time(text: &str, closing: bool) -> Option<ClockTime> {
    if closing && text == END_OF_DAY_TIME {
        return Some(ClockTime::END_OF_DAY);
    }
    let minutes = text.strip_suffix(":00")?;
    ClockTime::parse(minutes).filter(|time| *time < ClockTime::END_OF_DAY)
}

/// Reads `hoursOfOperation` entries into a week of hours; every problem is named by its path.
pub fn read_hours_of_operation(entries: &[Value]) -> Result<WeeklyHours, Vec<HoursProblem>> {
    let mut problems: Vec<HoursProblem> = Vec::new();
    let mut ranges = Vec::new();
    for (index, entry) in entries.iter().enumerate() {
        let path = format!("hoursOfOperation[{index}]");
        let Some(entry) = entry.as_object() else {
            problems.push((path, "must be an object".into()));
            continue;
        };
        let days = read_days(entry, &path, &mut problems);
        let all_day = match entry.get("allDay") {
            None | Some(Value::Null) => false,
            Some(Value::Bool(all_day)) => *all_day,
            Some(_) => {
                problems.push((format!("{path}.allDay"), "must be true or false".into()));
                continue;
            }
        };
        let (opens, closes) = if all_day {
            if entry.contains_key("openingTime") || entry.contains_key("closingTime") {
                problems.push((path, "is allDay: it takes no openingTime or closingTime".into()));
                continue;
            }
            (ClockTime::MIDNIGHT, ClockTime::END_OF_DAY)
        } else {
            let mut time = |key: &str, closing: bool| -> Option<ClockTime> {
                let field = format!("{path}.{key}");
                match entry.get(key) {
                    None | Some(Value::Null) => {
                        problems.push((field, "is required (or allDay: true)".into()));
                        None
                    }
                    Some(Value::String(text)) => {
                        let time = read_time(text, closing);
                        if time.is_none() {
                            let hint = if closing { ", or 23:59:59 for midnight" } else { "" };
                            problems.push((
                                field,
                                format!("\"{text}\" is not a time of day on the minute (HH:MM:00{hint})"),
                            ));
                        }
                        time
                    }
                    Some(_) => {
                        problems.push((field, "must be a time as a string (HH:MM:SS)".into()));
                        None
                    }
                }
            };
            let opens = time("openingTime", false);
            let closes = time("closingTime", true);
            let (Some(opens), Some(closes)) = (opens, closes) else {
                continue;
            };
            if opens >= closes {
                problems.push((
                    path,
                    format!("opens at {opens} but closes at {closes}: a range must open before it closes"),
                ));
                continue;
            }
            (opens, closes)
        };
        ranges.extend(days.into_iter().map(|day| OpeningRange { day, opens, closes }));
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    // What is left is across entries: ranges of a day that overlap, or too many.
    WeeklyHours::new(ranges).map_err(|error| {
        let day = error.field.strip_prefix("hours.").unwrap_or(&error.field).to_owned();
        let message = error.to_string();
        let why = message.strip_prefix(&error.field).unwrap_or(&message).trim();
        vec![("hoursOfOperation".to_owned(), format!("on {day}: {why}"))]
    })
}

fn read_days(entry: &Map<String, Value>, path: &str, problems: &mut Vec<HoursProblem>) -> Vec<Weekday> {
    let field = format!("{path}.daysOfWeek");
    let codes = match entry.get("daysOfWeek") {
        Some(Value::Array(codes)) if !codes.is_empty() => codes,
        Some(Value::Array(_)) | None | Some(Value::Null) => {
            problems.push((field, "is required (the days these times are for)".into()));
            return Vec::new();
        }
        Some(_) => {
            problems.push((field, "must be an array of days (mon ... sun)".into()));
            return Vec::new();
        }
    };
    let mut days = Vec::new();
    for (index, code) in codes.iter().enumerate() {
        match code.as_str().and_then(Weekday::parse) {
            Some(day) if !days.contains(&day) => days.push(day),
            Some(day) => problems.push((format!("{field}[{index}]"), format!("names {} twice", day.code()))),
            None => problems.push((
                format!("{field}[{index}]"),
                format!("{code} is not a day of the week (mon, tue, wed, thu, fri, sat, sun)"),
            )),
        }
    }
    days
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hours(json: Value) -> WeeklyHours {
        WeeklyHours::from_json(&json).unwrap()
    }

    #[test]
    fn a_week_goes_out_and_comes_back_the_same() {
        let week = hours(json!({
            "mon": [{ "opens": "08:00", "closes": "12:00" }, { "opens": "13:00", "closes": "17:30" }],
            "tue": [{ "opens": "08:00", "closes": "12:00" }, { "opens": "13:00", "closes": "17:30" }],
            "wed": [{ "opens": "09:00", "closes": "24:00" }],
            "sat": [{ "opens": "00:00", "closes": "24:00" }],
        }));
        let entries = hours_of_operation(&week);
        assert_eq!(
            Value::Array(entries.clone()),
            json!([
                { "daysOfWeek": ["mon", "tue"], "openingTime": "08:00:00", "closingTime": "12:00:00" },
                { "daysOfWeek": ["mon", "tue"], "openingTime": "13:00:00", "closingTime": "17:30:00" },
                { "daysOfWeek": ["wed"], "openingTime": "09:00:00", "closingTime": "23:59:59" },
                { "daysOfWeek": ["sat"], "allDay": true },
            ])
        );
        assert_eq!(read_hours_of_operation(&entries), Ok(week));
    }

    #[test]
    fn bad_days_times_and_overlaps_are_named_by_path() {
        let problems = |entries: Value| read_hours_of_operation(entries.as_array().unwrap()).unwrap_err();
        assert_eq!(
            problems(
                json!([{ "daysOfWeek": ["mon", "funday"], "openingTime": "08:00:00", "closingTime": "17:00:00" }])
            ),
            vec![(
                "hoursOfOperation[0].daysOfWeek[1]".to_owned(),
                "\"funday\" is not a day of the week (mon, tue, wed, thu, fri, sat, sun)".to_owned()
            )]
        );
        assert_eq!(
            problems(json!([{ "daysOfWeek": ["mon"], "openingTime": "25:00:00", "closingTime": "17:00:00" }]))[0].0,
            "hoursOfOperation[0].openingTime"
        );
        assert_eq!(
            problems(json!([{ "daysOfWeek": ["mon"], "openingTime": "08:00:00" }]))[0].0,
            "hoursOfOperation[0].closingTime"
        );
        assert_eq!(
            problems(json!([{ "daysOfWeek": ["tue"], "openingTime": "17:00:00", "closingTime": "08:00:00" }]))[0].0,
            "hoursOfOperation[0]"
        );
        assert_eq!(
            problems(json!([
                { "daysOfWeek": ["mon"], "openingTime": "08:00:00", "closingTime": "12:00:00" },
                { "daysOfWeek": ["mon"], "openingTime": "11:00:00", "closingTime": "14:00:00" }
            ])),
            vec![(
                "hoursOfOperation".to_owned(),
                "on mon: has ranges that overlap (08:00-12:00 and 11:00-14:00)".to_owned()
            )]
        );
    }
}
