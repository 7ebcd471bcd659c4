//! The legal pages (Terms of Use, Privacy Policy, Cookie Policy): Markdown the operator supplies
//! in `NEARCARE_LEGAL_DIR`, the repository's `legal/` texts otherwise (legal/README.md).
//!
//! A document's version is a digest of its text, so an edited file is a new version without
//! anyone remembering to number it, and an agreement names exactly the text that was shown.

use std::path::Path;

use anyhow::Context;
use sha2::{Digest, Sha256};

/// The documents, by the name used in paths and files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Document {
    Terms,
    Privacy,
    Cookies,
}

impl Document {
    pub const ALL: [Document; 3] = [Document::Terms, Document::Privacy, Document::Cookies];

    pub fn name(self) -> &'static str {
        match self {
            Document::Terms => "terms",
            Document::Privacy => "privacy",
            Document::Cookies => "cookies",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|document| document.name() == name)
    }

    /// The text shipped with the server, for a folder that lacks the file.
    fn default_text(self) -> &'static str {
        match self {
            Document::Terms => include_str!("../../../legal/terms.md"),
            Document::Privacy => include_str!("../../../legal/privacy.md"),
            Document::Cookies => include_str!("../../../legal/cookies.md"),
        }
    }

    fn default_title(self) -> &'static str {
        match self {
            Document::Terms => "Terms of Use",
            Document::Privacy => "Privacy Policy",
            Document::Cookies => "Cookie Policy",
        }
    }
}

#[derive(Debug, Clone)]
pub struct LegalDocument {
    pub document: Document,
    pub title: String,
    pub version: String,
    /// The Markdown, its title line included.
    pub text: String,
}

impl LegalDocument {
    fn new(document: Document, text: String) -> Self {
        let title = text
            .lines()
            .find_map(|line| line.strip_prefix("# "))
            .map(|title| title.trim().to_owned())
            .filter(|title| !title.is_empty())
            .unwrap_or_else(|| document.default_title().to_owned());
        let digest = Sha256::digest(text.as_bytes());
        let version = digest[..8].iter().map(|byte| format!("{byte:02x}")).collect();
        Self {
            document,
            title,
            version,
            text,
        }
    }
}

/// The three documents as the server read them at start.
#[derive(Debug, Clone)]
pub struct LegalDocuments {
    documents: Vec<LegalDocument>,
}

impl LegalDocuments {
    /// Reads each document from `folder`, falling back to the shipped text for a file that is
    /// not there; a file that is there but cannot be read stops the server rather than serving
    /// a text the operator did not mean.
    pub fn load(folder: &Path) -> anyhow::Result<Self> {
        let mut documents = Vec::with_capacity(Document::ALL.len());
        for document in Document::ALL {
            let path = folder.join(format!("{}.md", document.name()));
            let text = match std::fs::read_to_string(&path) {
                Ok(text) => text,
                Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                    tracing::info!(path = %path.display(), "no legal text here: serving the default");
                    document.default_text().to_owned()
                }
                Err(error) => return Err(error).with_context(|| format!("reading {}", path.display())),
            };
            documents.push(LegalDocument::new(document, text));
        }
        Ok(Self { documents })
    }

    pub fn get(&self, document: Document) -> &LegalDocument {
        self.documents
            .iter()
            .find(|candidate| candidate.document == document)
            .expect("load reads every document")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_folder_serves_the_shipped_texts_with_their_titles() {
        let documents = LegalDocuments::load(Path::new("/nonexistent/legal")).unwrap();
        assert_eq!(documents.get(Document::Terms).title, "Terms of Use");
        assert_eq!(documents.get(Document::Privacy).title, "Privacy Policy");
        assert_eq!(documents.get(Document::Cookies).title, "Cookie Policy");
        assert_eq!(documents.get(Document::Terms).version.len(), 16);
    }

    #[test]
    fn an_edited_text_is_a_new_version() {
        let folder = std::env::temp_dir().join(format!("nearcare-legal-{}", std::process::id()));
        std::fs::create_dir_all(&folder).unwrap();
        let shipped = LegalDocuments::load(&folder)
            .unwrap()
            .get(Document::Terms)
            .version
            .clone();
        std::fs::write(folder.join("terms.md"), "# Our Terms\n\nBe kind.\n").unwrap();
        let edited = LegalDocuments::load(&folder).unwrap();
        std::fs::remove_dir_all(&folder).unwrap();
        let terms = edited.get(Document::Terms);
        assert_eq!(terms.title, "Our Terms");
        assert_ne!(terms.version, shipped);
        assert_eq!(
            edited.get(Document::Privacy).title,
            "Privacy Policy",
            "the others keep their defaults"
        );
    }
}
