//! The client's IP address: the socket peer, or, when the peer is a trusted proxy, the
//! nearest untrusted address in `X-Forwarded-For`. A client cannot spoof its address by
//! sending the header itself, because an untrusted peer's header is ignored.

use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::HeaderMap;
use axum::http::request::Parts;

use crate::platform::config::{IpNet, canonical};

/// The address rate limits and audit entries attribute a request to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientIp(pub IpAddr);

/// The trusted-proxy list, installed as a request extension by the router.
#[derive(Debug, Clone, Default)]
pub struct TrustedProxies(pub Vec<IpNet>);

impl TrustedProxies {
    fn trusts(&self, ip: IpAddr) -> bool {
        self.0.iter().any(|net| net.contains(ip))
    }

    /// Resolves the client address from the peer and the forwarded-for chain.
    pub fn resolve(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        let peer = canonical(peer);
        if !self.trusts(peer) {
            return peer;
        }
        // Walk the chain from the right (the hop nearest to us); the first address that is
        // not one of our proxies is the client.
        let chain: Vec<IpAddr> = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .filter_map(|s| s.trim().parse::<IpAddr>().ok())
            .map(canonical)
            .collect();
        let mut client = peer;
        for ip in chain.into_iter().rev() {
            client = ip;
            if !self.trusts(ip) {
                break;
            }
        }
        client
    }
}

impl<S: Send + Sync> FromRequestParts<S> for ClientIp {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ci| ci.0.ip())
            .unwrap_or(IpAddr::from([127, 0, 0, 1]));
        let proxies = parts
            .extensions
            .get::<TrustedProxies>()
            .cloned()
            .unwrap_or_default();
        Ok(ClientIp(proxies.resolve(peer, &parts.headers)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(xff: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(
            "x-forwarded-for",
            HeaderValue::from_str(xff).expect("header"),
        );
        h
    }

    #[test]
    fn untrusted_peers_cannot_spoof() {
        let proxies = TrustedProxies(vec![IpNet::parse("172.20.0.0/16").expect("net")]);
        let peer: IpAddr = "203.0.113.9".parse().expect("ip");
        assert_eq!(proxies.resolve(peer, &headers("1.2.3.4")), peer);
    }

    #[test]
    fn trusted_proxy_yields_the_nearest_untrusted_hop() {
        let proxies = TrustedProxies(vec![IpNet::parse("172.20.0.0/16").expect("net")]);
        let peer: IpAddr = "172.20.0.5".parse().expect("ip");
        let got = proxies.resolve(peer, &headers("6.6.6.6, 198.51.100.7, 172.20.0.9"));
        assert_eq!(got, "198.51.100.7".parse::<IpAddr>().expect("ip"));
        assert_eq!(proxies.resolve(peer, &HeaderMap::new()), peer);
    }
}
