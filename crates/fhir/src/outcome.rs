//! Errors as FHIR OperationOutcome resources.

use serde_json::{Value, json};

/// An OperationOutcome with one error issue. `code` is FHIR's issue type (`invalid`,
/// `not-found`, `not-supported`, `processing`, `exception`); `expression` names the parameter
/// or element at fault.
pub fn outcome(code: &str, diagnostics: &str, expression: Option<&str>) -> Value {
    let mut issue = json!({ "severity": "error", "code": code, "diagnostics": diagnostics });
    if let Some(expression) = expression {
        issue["expression"] = json!([expression]);
    }
    json!({ "resourceType": "OperationOutcome", "issue": [issue] })
}
