//! Turning addresses into positions. Offline by default (the gazetteer); with a geocoder URL
//! configured, a Google-compatible geocoding API answers instead, cached, with the gazetteer as
//! the fallback when it fails.

use std::sync::Arc;
use std::time::Duration;

use domain::LatLng;
use gazetteer::{Gazetteer, Geocoded};
use moka::future::Cache;
use serde::Deserialize;

use crate::config::Secret;

/// Answers kept by the outside geocoder's cache, and for how long.
const CACHED_ANSWERS: u64 = 50_000;
const CACHE_SECONDS: u64 = 24 * 60 * 60;

/// The geocoder a server uses.
#[derive(Clone)]
pub enum Geocoder {
    Offline(Arc<Gazetteer>),
    Remote(Arc<RemoteGeocoder>),
}

impl Geocoder {
    pub fn new(gazetteer: Arc<Gazetteer>, url: Option<String>, key: Option<Secret>) -> Self {
        match url {
            Some(url) => Self::Remote(Arc::new(RemoteGeocoder::new(gazetteer, url, key))),
            None => Self::Offline(gazetteer),
        }
    }

    pub async fn geocode(&self, address: &str) -> Option<Geocoded> {
        match self {
            Self::Offline(gazetteer) => gazetteer.geocode(address),
            Self::Remote(remote) => remote.geocode(address).await,
        }
    }

    pub async fn reverse(&self, position: LatLng) -> Option<Geocoded> {
        match self {
            Self::Offline(gazetteer) => gazetteer.reverse_geocode(position),
            Self::Remote(remote) => remote.reverse(position).await,
        }
    }

    /// The place at a position, else (over open water, another country) the nearest ZIP at its
    /// own centroid: what a search from the map's centre stands on.
    pub async fn reverse_or_nearest(&self, position: LatLng) -> Option<Geocoded> {
        if let Some(found) = self.reverse(position).await {
            return Some(found);
        }
        match self {
            Self::Offline(gazetteer) => gazetteer.nearest_place(position),
            Self::Remote(remote) => remote.fallback.nearest_place(position),
        }
    }
}

/// A client of a Google-compatible geocoding API (`?address=` / `?latlng=`, `key`).
pub struct RemoteGeocoder {
    client: reqwest::Client,
    url: String,
    key: Option<Secret>,
    cache: Cache<String, Option<Geocoded>>,
    fallback: Arc<Gazetteer>,
}

#[derive(Deserialize)]
struct RemoteAnswer {
    status: String,
    #[serde(default)]
    results: Vec<RemoteResult>,
}

#[derive(Deserialize)]
struct RemoteResult {
    formatted_address: String,
    geometry: RemoteGeometry,
    #[serde(default)]
    address_components: Vec<RemoteComponent>,
}

#[derive(Deserialize)]
struct RemoteGeometry {
    location: LatLng,
}

#[derive(Deserialize)]
struct RemoteComponent {
    short_name: String,
    #[serde(default)]
    types: Vec<String>,
}

impl RemoteGeocoder {
    fn new(fallback: Arc<Gazetteer>, url: String, key: Option<Secret>) -> Self {
        crate::install_tls_provider();
        let client = reqwest::Client::builder()
            .timeout(Duration::from_secs(3))
            .build()
            .expect("an HTTP client with default settings builds");
        let cache = Cache::builder()
            .max_capacity(CACHED_ANSWERS)
            .time_to_live(Duration::from_secs(CACHE_SECONDS))
            .build();
        Self {
            client,
            url,
            key,
            cache,
            fallback,
        }
    }

    async fn geocode(&self, address: &str) -> Option<Geocoded> {
        let key = format!("address:{}", address.trim().to_lowercase());
        let answer = self
            .cached(key, vec![("address".to_owned(), address.trim().to_owned())])
            .await;
        answer.or_else(|| self.fallback.geocode(address))
    }

    async fn reverse(&self, position: LatLng) -> Option<Geocoded> {
        let latlng = format!("{:.5},{:.5}", position.lat, position.lng);
        let answer = self
            .cached(format!("latlng:{latlng}"), vec![("latlng".to_owned(), latlng)])
            .await;
        answer.or_else(|| self.fallback.reverse_geocode(position))
    }

    /// Asks the outside service once per distinct question; failures are logged, not cached.
    async fn cached(&self, key: String, query: Vec<(String, String)>) -> Option<Geocoded> {
        if let Some(hit) = self.cache.get(&key).await {
            return hit;
        }
        match self.ask(query).await {
            Ok(answer) => {
                self.cache.insert(key, answer.clone()).await;
                answer
            }
            Err(error) => {
                tracing::warn!(%error, "outside geocoder failed, answering from the gazetteer");
                None
            }
        }
    }

    async fn ask(&self, mut query: Vec<(String, String)>) -> Result<Option<Geocoded>, reqwest::Error> {
        if let Some(key) = &self.key {
            query.push(("key".to_owned(), key.0.clone()));
        }
        let answer: RemoteAnswer = self
            .client
            .get(&self.url)
            .query(&query)
            .send()
            .await?
            .error_for_status()?
            .json()
            .await?;
        if answer.status != "OK" {
            return Ok(None);
        }
        Ok(answer.results.into_iter().next().map(|result| {
            let component = |kind: &str| {
                result
                    .address_components
                    .iter()
                    .find(|c| c.types.iter().any(|t| t == kind))
                    .map(|c| c.short_name.clone())
            };
            Geocoded {
                position: result.geometry.location,
                zip: component("postal_code"),
                state: component("administrative_area_level_1").unwrap_or_default(),
                formatted_address: result.formatted_address,
            }
        }))
    }
}
