//! A solution's participation contract as a PDF, written from the solution row: the parties, the
//! rates, the fees and the terms. The bytes depend only on the row, so their SHA-256 is the
//! contract's version: what a provider agreed to is recorded by that hash.

use std::fmt::Write as _;

use domain::participation::{Cents, fee_schedule};
use sha2::Digest;
use store::participations::{Rate, SolutionTerms};

/// US Letter, in points.
const PAGE_WIDTH: u32 = 612;
const PAGE_HEIGHT: u32 = 792;
const MARGIN: u32 = 72;
const LINE_HEIGHT: u32 = 15;
/// Characters per line of 11 pt Helvetica within the margins (about 5.5 pt a character).
const LINE_CHARACTERS: usize = 86;
const LINES_PER_PAGE: usize = ((PAGE_HEIGHT - 2 * MARGIN) / LINE_HEIGHT) as usize;

/// A line of the document: a heading is set in bold.
enum Line {
    Heading(String),
    Text(String),
    Blank,
}

/// The contract's bytes.
pub fn contract_pdf(solution: &SolutionTerms, rates: &[Rate]) -> Vec<u8> {
    let lines = contract_lines(solution, rates);
    write_pdf(&lines, &format!("{} - Solution Participation Agreement", solution.name))
}

/// The SHA-256 of the contract's bytes, in lower-case hex: its version.
pub fn contract_version(pdf: &[u8]) -> String {
    sha2::Sha256::digest(pdf)
        .iter()
        .fold(String::with_capacity(64), |mut hex, byte| {
            let _ = write!(hex, "{byte:02x}");
            hex
        })
}

fn contract_lines(solution: &SolutionTerms, rates: &[Rate]) -> Vec<Line> {
    let mut lines = Vec::new();
    let heading = |lines: &mut Vec<Line>, text: &str| {
        lines.push(Line::Blank);
        lines.push(Line::Heading(text.to_owned()));
    };
    let paragraph = |lines: &mut Vec<Line>, text: &str| {
        for line in wrap(text, LINE_CHARACTERS) {
            lines.push(Line::Text(line));
        }
    };
    lines.push(Line::Heading("SOLUTION PARTICIPATION AGREEMENT".to_owned()));
    paragraph(
        &mut lines,
        &format!("Solution: {} ({})", solution.name, solution.category),
    );
    let facilitator = format!(
        "Solution facilitator: {} {}, {}, {}",
        solution.facilitator_first_name,
        solution.facilitator_last_name,
        solution.facilitator_email,
        solution.facilitator_address1
    );
    paragraph(&mut lines, &facilitator);
    paragraph(
        &mut lines,
        "Provider: the direct primary care organisation whose authorised representative agrees to this \
         agreement in the Nearcare marketplace (\"the Provider\").",
    );
    heading(&mut lines, "1. The solution");
    paragraph(&mut lines, &solution.description);
    paragraph(&mut lines, &solution.definition);
    heading(&mut lines, "2. Rates");
    paragraph(
        &mut lines,
        "The Provider is paid the base rate of the rate group it chose, in US dollars per member per \
         month (PMPM), for each member enrolled through the solution. The rate groups are:",
    );
    for rate in rates {
        paragraph(
            &mut lines,
            &format!("  - {}: ${} PMPM", rate.rate_group, Cents(rate.base_rate_cents)),
        );
    }
    heading(&mut lines, "3. Fees");
    paragraph(
        &mut lines,
        "One monthly payment for one member is a transaction. From each transaction these fees are deducted:",
    );
    let tpa = u32::try_from(solution.tpa_basis_points).unwrap_or_default();
    for (entity, rule) in fee_schedule(tpa) {
        let text = match rule {
            domain::participation::FeeRule::Percent { .. } => {
                format!("  - {} fee: {} % of the base rate", entity.label(), rule.value())
            }
            domain::participation::FeeRule::Flat(_) => {
                format!("  - {} fee: ${} per transaction", entity.label(), rule.value())
            }
        };
        paragraph(&mut lines, &text);
    }
    paragraph(
        &mut lines,
        "Each fee is rounded once, half up to the cent, on the monthly payment. The Provider nets the base \
         rate less the fees. A year is twelve monthly payments.",
    );
    heading(&mut lines, "4. Approval and start");
    paragraph(
        &mut lines,
        "The Provider's participation starts when the solution facilitator approves it. Until then it is \
         pending, and the facilitator may decline it.",
    );
    heading(&mut lines, "5. Changes and ending");
    paragraph(
        &mut lines,
        "The Provider may choose another rate group; the new rate takes effect once the facilitator approves \
         it. Either party may end the participation; the Provider does so with Stop Participating, effective \
         at the end of the current month. Members enrolled at that time keep their care until then.",
    );
    heading(&mut lines, "6. Records");
    paragraph(
        &mut lines,
        "Nearcare keeps the version of this agreement the Provider agreed to (the SHA-256 of this document), \
         who agreed and when, and every change of the participation.",
    );
    lines
}

/// Splits `text` into lines of at most `width` characters at spaces.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let indent: String = text.chars().take_while(|c| *c == ' ').collect();
    let mut lines = Vec::new();
    let mut line = indent.clone();
    for word in text.split_whitespace() {
        if line.trim().is_empty() {
            line.push_str(word);
        } else if line.chars().count() + 1 + word.chars().count() <= width {
            line.push(' ');
            line.push_str(word);
        } else {
            lines.push(std::mem::replace(&mut line, format!("{indent}  {word}")));
        }
    }
    if !line.trim().is_empty() {
        lines.push(line);
    }
    lines
}

/// A PDF string literal in WinAnsi: backslash and parentheses escaped, characters outside the
/// encoding replaced.
fn pdf_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('(');
    for character in text.chars() {
        match character {
            '\\' | '(' | ')' => {
                out.push('\\');
                out.push(character);
            }
            '\u{2013}' | '\u{2014}' => out.push('-'),
            '\u{2018}' | '\u{2019}' => out.push('\''),
            '\u{201c}' | '\u{201d}' => out.push('"'),
            ' '..='~' => out.push(character),
            _ => out.push('?'),
        }
    }
    out.push(')');
    out
}

fn write_pdf(lines: &[Line], title: &str) -> Vec<u8> {
    let pages: Vec<&[Line]> = lines.chunks(LINES_PER_PAGE).collect();
    // Objects: 1 catalog, 2 page tree, 3 regular font, 4 bold font, 5 info, then a page and its
    // content stream per page.
    let first_page = 6;
    let mut objects: Vec<String> = Vec::new();
    let kids: Vec<String> = (0..pages.len())
        .map(|index| format!("{} 0 R", first_page + 2 * index))
        .collect();
    objects.push("<< /Type /Catalog /Pages 2 0 R >>".to_owned());
    objects.push(format!(
        "<< /Type /Pages /Kids [{}] /Count {} >>",
        kids.join(" "),
        pages.len()
    ));
    objects.push("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>".to_owned());
    objects.push("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>".to_owned());
    objects.push(format!("<< /Title {} /Producer (Nearcare) >>", pdf_string(title)));
    for (index, page) in pages.iter().enumerate() {
        let mut content = format!("BT\n{LINE_HEIGHT} TL\n{MARGIN} {} Td\n", PAGE_HEIGHT - MARGIN);
        for line in *page {
            match line {
                Line::Heading(text) => {
                    let _ = writeln!(content, "/F2 12 Tf {} Tj T*", pdf_string(text));
                }
                Line::Text(text) => {
                    let _ = writeln!(content, "/F1 11 Tf {} Tj T*", pdf_string(text));
                }
                Line::Blank => content.push_str("T*\n"),
            }
        }
        let _ = writeln!(
            content,
            "ET\nBT /F1 9 Tf {MARGIN} 40 Td (Page {} of {}) Tj ET",
            index + 1,
            pages.len()
        );
        objects.push(format!(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {PAGE_WIDTH} {PAGE_HEIGHT}] \
             /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents {} 0 R >>",
            first_page + 2 * index + 1
        ));
        objects.push(format!("<< /Length {} >>\nstream\n{content}endstream", content.len()));
    }
    let mut pdf = String::from("%PDF-1.4\n");
    let mut offsets = Vec::with_capacity(objects.len());
    for (index, object) in objects.iter().enumerate() {
        offsets.push(pdf.len());
        let _ = write!(pdf, "{} 0 obj\n{object}\nendobj\n", index + 1);
    }
    let xref = pdf.len();
    let _ = write!(pdf, "xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1);
    for offset in offsets {
        let _ = writeln!(pdf, "{offset:010} 00000 n ");
    }
    let _ = write!(
        pdf,
        "trailer\n<< /Size {} /Root 1 0 R /Info 5 0 R >>\nstartxref\n{xref}\n%%EOF\n",
        objects.len() + 1
    );
    pdf.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms() -> SolutionTerms {
        SolutionTerms {
            id: 1,
            name: "Stride (PT) Network".into(),
            kind: "virtual_network".into(),
            category: "Physical Therapy".into(),
            logo: String::new(),
            description: "Cash-price physical therapy \u{2013} near the member. ".repeat(40),
            definition: "Virtual network.".into(),
            website: String::new(),
            facilitator_first_name: "Ana".into(),
            facilitator_last_name: "Ruiz".into(),
            facilitator_email: "ana@stride.example".into(),
            facilitator_address1: "1 Main St".into(),
            tpa_basis_points: 150,
        }
    }

    fn rates() -> Vec<Rate> {
        vec![Rate {
            id: 1,
            solution_id: 1,
            rate_group: "Adults (18-64)".into(),
            base_rate_cents: 7500,
        }]
    }

    #[test]
    fn the_contract_is_a_well_formed_pdf_whose_xref_points_at_its_objects() {
        let pdf = contract_pdf(&terms(), &rates());
        let text = String::from_utf8(pdf.clone()).unwrap();
        assert!(text.starts_with("%PDF-1.4\n") && text.ends_with("%%EOF\n"));
        let startxref: usize = text
            .rsplit("startxref\n")
            .next()
            .unwrap()
            .lines()
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(text[startxref..].starts_with("xref\n"));
        for (number, entry) in text[startxref..]
            .lines()
            .skip(3)
            .take_while(|line| line.ends_with(" n "))
            .enumerate()
        {
            let offset: usize = entry[..10].parse().unwrap();
            assert!(
                text[offset..].starts_with(&format!("{} 0 obj", number + 1)),
                "object {}",
                number + 1
            );
        }
        assert!(
            text.contains("(Solution: Stride \\(PT\\) Network \\(Physical Therapy\\))"),
            "parentheses escaped"
        );
        assert!(text.contains("Adults \\(18-64\\): $75.00 PMPM"));
        assert!(text.contains("TPA fee: 1.50 % of the base rate"));
        assert!(text.contains("/Count 2"), "a long description runs onto a second page");
        assert!(
            !text.bytes().any(|byte| byte >= 0x80),
            "only WinAnsi's ASCII range is written"
        );
    }

    #[test]
    fn the_version_is_the_same_for_the_same_row_and_changes_with_it() {
        let version = contract_version(&contract_pdf(&terms(), &rates()));
        assert_eq!(version.len(), 64);
        assert_eq!(version, contract_version(&contract_pdf(&terms(), &rates())));
        let mut changed = terms();
        changed.tpa_basis_points = 200;
        assert_ne!(version, contract_version(&contract_pdf(&changed, &rates())));
    }
}
