//! The id of the request a piece of work is done for. The server scopes each request's future
//! with it; rows written for later work (outbox emails, jobs) keep it, so the log lines of their
//! delivery name the request that asked for them, and the background runners scope their work
//! with the id of the row they run.

use std::fmt;
use std::future::Future;

/// The longest id kept from a client's `x-request-id`.
pub const MAX_LEN: usize = 64;

/// A request id: 1 to 64 ASCII letters, digits, `-`, `_`, `.` or `:`, held inline (no
/// allocation per request).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct RequestId {
    bytes: [u8; MAX_LEN],
    len: u8,
}

impl RequestId {
    /// Reads an id a client or a row gave; `None` when it is empty, too long or holds a
    /// character outside the set above (such an id is replaced, never logged).
    pub fn parse(text: &[u8]) -> Option<Self> {
        let valid = !text.is_empty()
            && text.len() <= MAX_LEN
            && text
                .iter()
                .all(|byte| byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b'.' | b':'));
        if !valid {
            return None;
        }
        let mut bytes = [0; MAX_LEN];
        bytes[..text.len()].copy_from_slice(text);
        Some(Self {
            bytes,
            len: text.len() as u8,
        })
    }

    /// A new id from 128 random bits, written as a UUID (version 4, variant 1).
    pub fn from_random(random: u128) -> Self {
        let value = (random & !(0xf << 76) & !(0x3 << 62)) | (0x4 << 76) | (0x2 << 62);
        let mut bytes = [0; MAX_LEN];
        let mut at = 0;
        for (index, nibble_shift) in (0..32).rev().map(|nibble| nibble * 4).enumerate() {
            if matches!(index, 8 | 12 | 16 | 20) {
                bytes[at] = b'-';
                at += 1;
            }
            bytes[at] = b"0123456789abcdef"[((value >> nibble_shift) & 0xf) as usize];
            at += 1;
        }
        Self { bytes, len: at as u8 }
    }

    pub fn as_str(&self) -> &str {
        // Only ASCII is ever stored (see `parse` and `from_random`).
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or_default()
    }
}

impl fmt::Display for RequestId {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(self.as_str())
    }
}

impl fmt::Debug for RequestId {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "RequestId({})", self.as_str())
    }
}

tokio::task_local! {
    static CURRENT: RequestId;
}

/// Runs `work` as done for the request `id`: [`current`] answers it inside.
pub fn scope<F: Future>(id: RequestId, work: F) -> impl Future<Output = F::Output> {
    CURRENT.scope(id, work)
}

/// The id of the request the running task works for, if any.
pub fn current() -> Option<RequestId> {
    CURRENT.try_with(|id| *id).ok()
}

/// [`current`] as text, for a row's `request_id` column.
pub(crate) fn current_text() -> Option<String> {
    current().map(|id| id.as_str().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_incoming_id_is_kept_only_when_short_and_plain() {
        assert_eq!(RequestId::parse(b"abc-123_x.y:z").unwrap().as_str(), "abc-123_x.y:z");
        assert_eq!(RequestId::parse(&[b'a'; 64]).unwrap().as_str().len(), 64);
        for refused in [&b""[..], &[b'a'; 65], b"a b", b"a\"b", b"caf\xc3\xa9", b"a\nb", b"{x}"] {
            assert!(RequestId::parse(refused).is_none(), "{refused:?}");
        }
    }

    #[test]
    fn a_made_id_is_a_version_4_uuid() {
        let id = RequestId::from_random(u128::MAX);
        assert_eq!(id.as_str(), "ffffffff-ffff-4fff-bfff-ffffffffffff");
        let id = RequestId::from_random(0);
        assert_eq!(id.as_str(), "00000000-0000-4000-8000-000000000000");
        assert!(RequestId::parse(id.as_str().as_bytes()).is_some());
    }

    #[tokio::test]
    async fn the_current_id_is_the_scope_s() {
        assert_eq!(current(), None);
        let id = RequestId::parse(b"req-1").unwrap();
        let seen = scope(id, async { current() }).await;
        assert_eq!(seen, Some(id));
        assert_eq!(current(), None);
    }
}
