//! What limits key a client on: an IPv4 address, or the /64 network of an IPv6 address (one
//! subscriber line or host is routinely given a whole /64, so counting single IPv6 addresses
//! would give it 2^64 budgets). Addresses come from the peer of a connection or from an entry
//! of the proxy header, which may carry a port (`203.0.113.7:41234`, `[2001:db8::1]:443`).

use std::fmt;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};

/// A client as limits count it; its text (`198.51.100.7`, `2001:db8:1:2::/64`) names the
/// rate-limit windows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ClientKey(IpAddr);

impl ClientKey {
    /// The key of an address: IPv4 as it is (an IPv4-mapped IPv6 address counts as its IPv4
    /// address), IPv6 by its /64 network.
    pub fn of(address: IpAddr) -> Self {
        match address {
            IpAddr::V4(v4) => Self(IpAddr::V4(v4)),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => Self(IpAddr::V4(v4)),
                None => Self(IpAddr::V6(Ipv6Addr::from_bits(v6.to_bits() & !u128::from(u64::MAX)))),
            },
        }
    }

    /// The address the key stands for: the IPv4 address, or the first address of the IPv6 /64.
    pub fn address(&self) -> IpAddr {
        self.0
    }

    /// The key of an entry of a proxy header; `None` when it is not an address.
    pub fn parse(entry: &str) -> Option<Self> {
        parse_address(entry).map(Self::of)
    }
}

impl fmt::Display for ClientKey {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            IpAddr::V4(v4) => write!(formatter, "{v4}"),
            IpAddr::V6(network) => write!(formatter, "{network}/64"),
        }
    }
}

/// An address as proxies write it: bare (`203.0.113.7`, `2001:db8::1`), with a port
/// (`203.0.113.7:41234`, `[2001:db8::1]:443`), or bracketed without one (`[2001:db8::1]`);
/// quotes around it (RFC 7239 style) are dropped.
fn parse_address(entry: &str) -> Option<IpAddr> {
    let entry = entry.trim().trim_matches('"');
    if let Ok(address) = entry.parse::<IpAddr>() {
        return Some(address);
    }
    if let Ok(socket) = entry.parse::<SocketAddr>() {
        return Some(socket.ip());
    }
    entry
        .strip_prefix('[')
        .and_then(|rest| rest.strip_suffix(']'))
        .and_then(|inner| inner.parse::<Ipv6Addr>().ok())
        .map(IpAddr::V6)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(entry: &str) -> Option<String> {
        ClientKey::parse(entry).map(|key| key.to_string())
    }

    #[test]
    fn ports_are_dropped_and_ipv6_is_keyed_by_its_64() {
        assert_eq!(key("203.0.113.7").as_deref(), Some("203.0.113.7"));
        assert_eq!(key(" 203.0.113.7:41234 ").as_deref(), Some("203.0.113.7"));
        assert_eq!(key("2001:db8:1:2:aaaa::1").as_deref(), Some("2001:db8:1:2::/64"));
        assert_eq!(key("[2001:db8:1:2:bbbb::9]:443").as_deref(), Some("2001:db8:1:2::/64"));
        assert_eq!(key("[2001:db8:1:2::5]").as_deref(), Some("2001:db8:1:2::/64"));
        assert_eq!(key("\"[2001:db8:1:3::5]:80\"").as_deref(), Some("2001:db8:1:3::/64"));
        assert_eq!(key("::ffff:198.51.100.9").as_deref(), Some("198.51.100.9"));
        for junk in ["", "unknown", "203.0.113", "hello:80", "[203.0.113.7]", "1.2.3.4:99999"] {
            assert_eq!(key(junk), None, "{junk}");
        }
    }

    #[test]
    fn one_64_is_one_client_and_the_next_64_another() {
        let a = ClientKey::parse("2001:db8:0:1::1").unwrap();
        let b = ClientKey::parse("2001:db8:0:1:ffff:ffff:ffff:ffff").unwrap();
        let c = ClientKey::parse("2001:db8:0:2::1").unwrap();
        assert_eq!(a, b);
        assert_ne!(a, c);
    }
}
