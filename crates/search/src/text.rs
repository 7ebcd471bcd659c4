//! The tantivy side of a snapshot: names, with prefix and typo tolerance, as bitsets of ordinals.

use std::collections::{HashMap, VecDeque};
use std::path::Path;
use std::sync::{Arc, Mutex};

use tantivy::collector::{Collector, SegmentCollector};
use tantivy::query::{BooleanQuery, FuzzyTermQuery, Occur, Query};
use tantivy::schema::{FAST, Field, INDEXED, IndexRecordOption, STORED, Schema, TextFieldIndexing, TextOptions};
use tantivy::tokenizer::{
    AsciiFoldingFilter, LowerCaser, RemoveLongFilter, SimpleTokenizer, TextAnalyzer, TokenStream,
};
use tantivy::{DocId, Index, IndexReader, ReloadPolicy, Score, SegmentOrdinal, SegmentReader, TantivyDocument, Term};

use crate::bitset::Bitset;
use crate::error::SearchError;

const TOKENIZER: &str = "names";
/// Words in a name query; more are refused rather than silently dropped.
pub const MAX_QUERY_WORDS: usize = 8;
/// Characters in a name query.
pub const MAX_QUERY_CHARS: usize = 100;
/// Indexing memory: enough for a million locations in one segment (so doc id == ordinal),
/// small enough to keep a million-location build under 2 GiB.
const WRITER_MEMORY_BYTES: usize = 400 << 20;
/// Indexing memory of a patch's small index (tantivy's floor per thread is 15 MB).
const OVERLAY_WRITER_MEMORY_BYTES: usize = 15 << 20;

/// Which fields a query looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Fields {
    /// Place names and the names of people there.
    All,
    /// Place names only.
    Primary,
}

/// A parsed name query: normalised words. Every word matches a whole word, with one typo
/// allowed from 4 characters; the last word may also match the start of a word.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TextQuery {
    words: Vec<String>,
}

impl TextQuery {
    /// Parses free text; returns `None` for text with no words.
    pub fn parse(text: &str) -> Result<Option<Self>, SearchError> {
        if text.chars().count() > MAX_QUERY_CHARS {
            return Err(SearchError::InvalidFilter(format!(
                "searchByName is longer than {MAX_QUERY_CHARS} characters"
            )));
        }
        let mut analyzer = analyzer();
        let mut stream = analyzer.token_stream(text);
        let mut words = Vec::new();
        while stream.advance() {
            words.push(stream.token().text.clone());
        }
        if words.len() > MAX_QUERY_WORDS {
            return Err(SearchError::InvalidFilter(format!(
                "searchByName has more than {MAX_QUERY_WORDS} words"
            )));
        }
        Ok((!words.is_empty()).then_some(Self { words }))
    }

    pub fn words(&self) -> &[String] {
        &self.words
    }
}

/// Typo tolerance grows with word length: exact up to 3 characters, one edit beyond.
fn edit_distance_for(word: &str) -> u8 {
    if word.chars().count() <= 3 { 0 } else { 1 }
}

fn analyzer() -> TextAnalyzer {
    TextAnalyzer::builder(SimpleTokenizer::default())
        .filter(RemoveLongFilter::limit(40))
        .filter(LowerCaser)
        .filter(AsciiFoldingFilter)
        .build()
}

struct TextFields {
    ordinal: Field,
    primary: Field,
    secondary: Field,
}

fn schema() -> (Schema, TextFields) {
    let mut builder = Schema::builder();
    let text_options = TextOptions::default().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer(TOKENIZER)
            .set_index_option(IndexRecordOption::Basic),
    );
    let ordinal = builder.add_u64_field("ord", FAST | INDEXED | STORED);
    let primary = builder.add_text_field("primary", text_options.clone());
    let secondary = builder.add_text_field("secondary", text_options);
    (
        builder.build(),
        TextFields {
            ordinal,
            primary,
            secondary,
        },
    )
}

/// A name index over one kind of entity (locations or clinicians).
pub struct TextIndex {
    cache: Mutex<ResultCache>,
    reader: IndexReader,
    fields: TextFields,
    len: usize,
    /// True when the index is one segment whose doc ids are the ordinals.
    doc_id_is_ordinal: bool,
}

impl TextIndex {
    /// Indexes `(primary, secondary)` texts; the n-th pair gets ordinal n. With `directory`,
    /// the index is written there, otherwise it lives in memory.
    pub fn build(
        directory: Option<&Path>,
        documents: impl ExactSizeIterator<Item = (String, String)>,
        progress: &dyn Fn(u64),
    ) -> Result<Self, SearchError> {
        let (schema, fields) = schema();
        let index = match directory {
            Some(directory) => {
                std::fs::create_dir_all(directory)?;
                Index::create_in_dir(directory, schema)?
            }
            None => Index::create_in_ram(schema),
        };
        index.tokenizers().register(TOKENIZER, analyzer());
        let len = documents.len();
        let mut writer = index.writer_with_num_threads::<TantivyDocument>(1, WRITER_MEMORY_BYTES)?;
        for (ordinal, (primary, secondary)) in documents.enumerate() {
            let mut document = TantivyDocument::default();
            document.add_u64(fields.ordinal, ordinal as u64);
            document.add_text(fields.primary, &primary);
            document.add_text(fields.secondary, &secondary);
            writer.add_document(document)?;
            if ordinal % 10_000 == 9_999 {
                progress(ordinal as u64 + 1);
            }
        }
        writer.commit()?;
        writer.wait_merging_threads()?;
        Self::from_index(index, fields, len, len)
    }

    /// A small in-memory index of some ordinals' texts, among `len` ordinals: the texts a patch
    /// changed (a location whose clinicians changed), searched beside the snapshot's own index.
    pub fn build_for_ordinals(
        documents: impl ExactSizeIterator<Item = (u32, (String, String))>,
        len: usize,
    ) -> Result<Self, SearchError> {
        let (schema, fields) = schema();
        let index = Index::create_in_ram(schema);
        index.tokenizers().register(TOKENIZER, analyzer());
        let count = documents.len();
        let mut writer = index.writer_with_num_threads::<TantivyDocument>(1, OVERLAY_WRITER_MEMORY_BYTES)?;
        for (ordinal, (primary, secondary)) in documents {
            let mut document = TantivyDocument::default();
            document.add_u64(fields.ordinal, u64::from(ordinal));
            document.add_text(fields.primary, &primary);
            document.add_text(fields.secondary, &secondary);
            writer.add_document(document)?;
        }
        writer.commit()?;
        writer.wait_merging_threads()?;
        let mut built = Self::from_index(index, fields, count, len)?;
        // Doc ids are positions among the few documents, never the ordinals.
        built.doc_id_is_ordinal = false;
        Ok(built)
    }

    /// Opens an index written by [`TextIndex::build`].
    pub fn open(directory: &Path, len: usize) -> Result<Self, SearchError> {
        let index = Index::open_in_dir(directory)?;
        index.tokenizers().register(TOKENIZER, analyzer());
        let (_, fields) = schema();
        Self::from_index(index, fields, len, len)
    }

    /// An index of `documents` documents whose ordinals are below `len`.
    fn from_index(index: Index, fields: TextFields, documents: usize, len: usize) -> Result<Self, SearchError> {
        let reader = index.reader_builder().reload_policy(ReloadPolicy::Manual).try_into()?;
        let searcher = reader.searcher();
        let segments = searcher.segment_readers();
        let doc_id_is_ordinal = match segments {
            [single] if single.max_doc() as usize == documents && single.num_deleted_docs() == 0 => {
                let column = single.fast_fields().u64("ord")?;
                (0..single.max_doc()).all(|doc| column.first(doc) == Some(u64::from(doc)))
            }
            [] => documents == 0,
            _ => false,
        };
        if searcher.num_docs() as usize != documents {
            return Err(SearchError::Corrupt(format!(
                "text index holds {} documents, expected {documents}",
                searcher.num_docs()
            )));
        }
        Ok(Self {
            cache: Mutex::default(),
            reader,
            fields,
            len,
            doc_id_is_ordinal,
        })
    }

    fn query(&self, text: &TextQuery, fields: Fields) -> BooleanQuery {
        let searched: &[Field] = match fields {
            Fields::All => &[self.fields.primary, self.fields.secondary],
            Fields::Primary => &[self.fields.primary],
        };
        let last = text.words.len() - 1;
        let clauses: Vec<(Occur, Box<dyn Query>)> = text
            .words
            .iter()
            .enumerate()
            .map(|(position, word)| {
                let distance = edit_distance_for(word);
                let mut alternatives: Vec<(Occur, Box<dyn Query>)> = Vec::new();
                for field in searched {
                    let term = Term::from_field_text(*field, word);
                    alternatives.push((
                        Occur::Should,
                        Box::new(FuzzyTermQuery::new(term.clone(), distance, true)),
                    ));
                    // The word being typed may be the start of a word (no typo there).
                    if position == last {
                        alternatives.push((Occur::Should, Box::new(FuzzyTermQuery::new_prefix(term, 0, true))));
                    }
                }
                (Occur::Must, Box::new(BooleanQuery::new(alternatives)) as Box<dyn Query>)
            })
            .collect();
        BooleanQuery::new(clauses)
    }

    /// Returns the ordinals whose texts contain every word of the query. Recent answers are
    /// kept: many people type the same few names, and an index never changes.
    pub fn matches(&self, text: &TextQuery, fields: Fields) -> Result<Arc<Bitset>, SearchError> {
        let key = (text.clone(), fields);
        if let Some(hit) = self
            .cache
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .get(&key)
        {
            return Ok(hit);
        }
        let answer = Arc::new(self.matches_uncached(text, fields)?);
        self.cache
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .insert(key, Arc::clone(&answer));
        Ok(answer)
    }

    /// Like [`TextIndex::matches`], bypassing the cache (for measuring the index itself).
    pub fn matches_uncached(&self, text: &TextQuery, fields: Fields) -> Result<Bitset, SearchError> {
        let query = self.query(text, fields);
        let collector = BitsetCollector {
            len: self.len,
            doc_id_is_ordinal: self.doc_id_is_ordinal,
        };
        Ok(self.reader.searcher().search(&query, &collector)?)
    }

    pub fn len(&self) -> usize {
        self.len
    }

    /// True when the index is one segment whose doc ids are the ordinals (the fast path).
    pub fn doc_ids_are_ordinals(&self) -> bool {
        self.doc_id_is_ordinal
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// Answers kept per index, oldest dropped first.
const CACHED_ANSWERS: usize = 64;

#[derive(Default)]
struct ResultCache {
    answers: HashMap<(TextQuery, Fields), Arc<Bitset>>,
    order: VecDeque<(TextQuery, Fields)>,
}

impl ResultCache {
    fn get(&self, key: &(TextQuery, Fields)) -> Option<Arc<Bitset>> {
        self.answers.get(key).cloned()
    }

    fn insert(&mut self, key: (TextQuery, Fields), answer: Arc<Bitset>) {
        if self.answers.insert(key.clone(), answer).is_none() {
            self.order.push_back(key);
        }
        while self.order.len() > CACHED_ANSWERS {
            if let Some(oldest) = self.order.pop_front() {
                self.answers.remove(&oldest);
            }
        }
    }
}

struct BitsetCollector {
    len: usize,
    doc_id_is_ordinal: bool,
}

struct BitsetSegmentCollector {
    set: Bitset,
    ordinals: Option<tantivy::columnar::Column<u64>>,
}

impl Collector for BitsetCollector {
    type Fruit = Bitset;
    type Child = BitsetSegmentCollector;

    fn for_segment(&self, _segment: SegmentOrdinal, reader: &SegmentReader) -> tantivy::Result<Self::Child> {
        let ordinals = if self.doc_id_is_ordinal {
            None
        } else {
            Some(reader.fast_fields().u64("ord")?)
        };
        Ok(BitsetSegmentCollector {
            set: Bitset::empty(self.len),
            ordinals,
        })
    }

    fn requires_scoring(&self) -> bool {
        false
    }

    fn merge_fruits(&self, fruits: Vec<Bitset>) -> tantivy::Result<Bitset> {
        let mut fruits = fruits.into_iter();
        let mut merged = fruits.next().unwrap_or_else(|| Bitset::empty(self.len));
        for fruit in fruits {
            merged.union_with(&fruit);
        }
        Ok(merged)
    }
}

impl SegmentCollector for BitsetSegmentCollector {
    type Fruit = Bitset;

    fn collect(&mut self, doc: DocId, _score: Score) {
        let ordinal = match &self.ordinals {
            None => Some(doc as usize),
            Some(column) => column.first(doc).map(|ordinal| ordinal as usize),
        };
        if let Some(ordinal) = ordinal.filter(|ordinal| *ordinal < self.set.len()) {
            self.set.insert(ordinal);
        }
    }

    fn collect_block(&mut self, docs: &[DocId]) {
        if self.ordinals.is_none() {
            for doc in docs {
                if (*doc as usize) < self.set.len() {
                    self.set.insert(*doc as usize);
                }
            }
        } else {
            for doc in docs {
                self.collect(*doc, 0.0);
            }
        }
    }

    fn harvest(self) -> Bitset {
        self.set
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index() -> TextIndex {
        let documents = vec![
            (
                "Summit Direct Primary Care Downtown".to_owned(),
                "Maria Garcia Robert Smith".to_owned(),
            ),
            ("Blue Ridge Family Medicine".to_owned(), "Ana Lopez".to_owned()),
            ("Smithfield Health".to_owned(), String::new()),
            ("Café Clinique".to_owned(), String::new()),
        ];
        TextIndex::build(None, documents.into_iter(), &|_| {}).unwrap()
    }

    fn ordinals(index: &TextIndex, text: &str, fields: Fields) -> Vec<usize> {
        let query = TextQuery::parse(text).unwrap().unwrap();
        index.matches(&query, fields).unwrap().iter().collect()
    }

    #[test]
    fn matches_every_word_with_the_last_as_a_prefix() {
        let index = index();
        assert!(index.doc_id_is_ordinal);
        assert_eq!(ordinals(&index, "summit prim", Fields::All), [0]);
        assert_eq!(ordinals(&index, "smith", Fields::All), [0, 2]);
        assert_eq!(ordinals(&index, "smith", Fields::Primary), [2]);
        assert_eq!(ordinals(&index, "family", Fields::All), [1]);
    }

    #[test]
    fn tolerates_one_typo_in_longer_words_and_folds_accents() {
        let index = index();
        assert_eq!(ordinals(&index, "summti", Fields::All), [0]);
        assert_eq!(
            ordinals(&index, "sumit", Fields::All),
            [0],
            "a typo is forgiven in whole words"
        );
        assert_eq!(
            ordinals(&index, "smi", Fields::All),
            [0, 2],
            "the last word may be a start"
        );
        assert!(
            ordinals(&index, "smi health", Fields::All).is_empty(),
            "earlier words are whole words"
        );
        assert_eq!(
            ordinals(&index, "garica", Fields::All),
            [0],
            "a transposition is one edit"
        );
        assert_eq!(ordinals(&index, "cafe cliniq", Fields::All), [3]);
        assert!(ordinals(&index, "xyz", Fields::All).is_empty());
    }

    #[test]
    fn refuses_overlong_queries_and_ignores_empty_ones() {
        assert!(TextQuery::parse(&"a".repeat(101)).is_err());
        assert!(TextQuery::parse("a b c d e f g h i").is_err());
        assert!(TextQuery::parse("  ,. ").unwrap().is_none());
    }
}
