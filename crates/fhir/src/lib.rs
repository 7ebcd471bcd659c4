//! The provider directory in HL7 FHIR R4 with the Da Vinci PDex Plan-Net profiles
//! (docs/fhir-contract.md): catalogue rows as resources, searches answered from a search
//! snapshot, the CapabilityStatement, OperationOutcome errors, and reading resources for
//! `indexer import`. No IO: the server and the CLI bring the snapshot, the request and the file.

pub mod capability;
pub mod codes;
pub mod directory;
pub mod hours;
pub mod import;
pub mod import_csv;
pub mod matching;
pub mod outcome;
pub mod params;
pub mod resources;
pub mod search;

pub use directory::{Directory, Item};
pub use params::{ParamError, Query, ResourceType, parse_query};
