//! Outgoing HTTP checks ("can Strata reach this service?") with an address policy against
//! server-side request forgery.
//!
//! Strata makes an outgoing request only where an admin asks it to test a configured
//! service (the AI provider). The request goes to the address this module resolved and
//! vetted, never to a name resolved a second time (no DNS rebinding between the check and
//! the connection), follows no redirect, reads only the status line and gives up after the
//! caller's timeout. Link-local addresses (where cloud metadata services answer), the known
//! metadata host names, unspecified, multicast and broadcast addresses are never contacted;
//! loopback and private networks only under [`AddressPolicy::LocalNetwork`], for services
//! that run beside Strata by design (an Ollama server on the same host or LAN).

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;
use tokio_rustls::rustls::pki_types::ServerName;
use tokio_rustls::rustls::{ClientConfig, RootCertStore};
use url::Url;

use crate::platform::config::canonical;

/// The longest status line read (a real one is a few dozen bytes).
const STATUS_LINE_MAX: usize = 8 * 1024;

/// Host names of cloud metadata services (they answer on link-local addresses, which are
/// refused anyway; the names are refused before any lookup).
const METADATA_HOSTS: &[&str] = &[
    "metadata",
    "metadata.google.internal",
    "metadata.goog",
    "instance-data",
    "instance-data.ec2.internal",
    "metadata.azure.com",
    "metadata.packet.net",
];

/// Which addresses an outgoing check may reach.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AddressPolicy {
    /// Public internet addresses only (a hosted service such as Anthropic's API).
    PublicOnly,
    /// Public addresses, this host (loopback) and private networks (a service that runs
    /// beside Strata by design, such as a local Ollama server).
    LocalNetwork,
}

/// Why an outgoing check did not get an HTTP status.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProbeError {
    /// The URL is not one Strata contacts (scheme, host, address class).
    #[error("{0}")]
    Refused(String),
    /// The host name did not resolve.
    #[error("could not resolve {0}")]
    Resolve(String),
    /// No resolved address accepted a connection.
    #[error("could not connect to {0}")]
    Connect(String),
    /// The TLS handshake failed (certificate, protocol).
    #[error("the TLS handshake with {0} failed")]
    Tls(String),
    /// Nothing complete came back before the timeout.
    #[error("no answer within {0} ms")]
    Timeout(u128),
    /// The answer was not HTTP.
    #[error("the answer is not HTTP")]
    Protocol,
}

/// An HTTP answer's status and how long it took to arrive (resolution included).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProbeAnswer {
    /// The HTTP status code.
    pub status: u16,
    /// From the start of the check to the status line.
    pub latency: Duration,
}

/// Why `ip` may not be contacted under `policy`, or `None` when it may.
pub fn address_refusal(ip: IpAddr, policy: AddressPolicy) -> Option<&'static str> {
    let ip = canonical(ip);
    let (unspecified, link_local, metadata, multicast, loopback, private) = match ip {
        IpAddr::V4(v4) => {
            let [a, b, ..] = v4.octets();
            (
                v4.is_unspecified() || a == 0,
                v4.is_link_local(),
                // Alibaba Cloud's metadata service lives outside the link-local range.
                v4 == Ipv4Addr::new(100, 100, 100, 200),
                v4.is_multicast() || v4.is_broadcast(),
                v4.is_loopback(),
                // RFC 1918 and the carrier-grade NAT range 100.64.0.0/10.
                v4.is_private() || (a == 100 && (64..128).contains(&b)),
            )
        }
        IpAddr::V6(v6) => {
            let first = v6.segments()[0];
            (
                v6.is_unspecified(),
                first & 0xffc0 == 0xfe80,
                // AWS's IPv6 metadata address, fd00:ec2::254.
                v6.segments() == [0xfd00, 0x0ec2, 0, 0, 0, 0, 0, 0x0254],
                v6.is_multicast(),
                v6.is_loopback(),
                // Unique local addresses, fc00::/7.
                first & 0xfe00 == 0xfc00,
            )
        }
    };
    if unspecified {
        Some("an unspecified address")
    } else if link_local || metadata {
        Some("a link-local or cloud metadata address")
    } else if multicast {
        Some("a multicast or broadcast address")
    } else if policy == AddressPolicy::PublicOnly && loopback {
        Some("a loopback address")
    } else if policy == AddressPolicy::PublicOnly && private {
        Some("a private network address")
    } else {
        None
    }
}

/// Why `url` may not be contacted under `policy` before any lookup (scheme, a metadata host
/// name, a literal address of a refused class), or `None`.
pub fn url_refusal(url: &Url, policy: AddressPolicy) -> Option<String> {
    if !matches!(url.scheme(), "http" | "https") {
        return Some("only http:// and https:// URLs are contacted".into());
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Some("the URL must not carry a user name or password".into());
    }
    match url.host() {
        None => Some("the URL has no host".into()),
        Some(url::Host::Domain(d)) => {
            let d = d.trim_end_matches('.').to_ascii_lowercase();
            METADATA_HOSTS
                .contains(&d.as_str())
                .then(|| format!("{d} is a cloud metadata service"))
        }
        Some(url::Host::Ipv4(v4)) => address_refusal(IpAddr::V4(v4), policy)
            .map(|why| format!("{v4} is {why}, which Strata never contacts")),
        Some(url::Host::Ipv6(v6)) => address_refusal(IpAddr::V6(v6), policy)
            .map(|why| format!("{v6} is {why}, which Strata never contacts")),
    }
}

/// `GET url` with `headers`, answering the status. Every resolved address must pass the
/// policy (a name with one refused address is refused); the connection goes to a vetted
/// address; everything, resolution included, ends at `timeout`.
pub async fn get(
    url: &Url,
    headers: &[(&str, &str)],
    policy: AddressPolicy,
    timeout: Duration,
) -> Result<ProbeAnswer, ProbeError> {
    if let Some(why) = url_refusal(url, policy) {
        return Err(ProbeError::Refused(why));
    }
    if headers
        .iter()
        .any(|(k, v)| k.chars().chain(v.chars()).any(char::is_control))
    {
        return Err(ProbeError::Refused(
            "a header value contains a control character".into(),
        ));
    }
    let started = Instant::now();
    match tokio::time::timeout(timeout, exchange(url, headers, policy)).await {
        Ok(Ok(status)) => Ok(ProbeAnswer {
            status,
            latency: started.elapsed(),
        }),
        Ok(Err(e)) => Err(e),
        Err(_) => Err(ProbeError::Timeout(timeout.as_millis())),
    }
}

async fn exchange(
    url: &Url,
    headers: &[(&str, &str)],
    policy: AddressPolicy,
) -> Result<u16, ProbeError> {
    let port = url
        .port_or_known_default()
        .ok_or_else(|| ProbeError::Refused("the URL has no port".into()))?;
    let (host, addresses) = match url.host() {
        Some(url::Host::Ipv4(v4)) => (v4.to_string(), vec![SocketAddr::new(v4.into(), port)]),
        Some(url::Host::Ipv6(v6)) => (v6.to_string(), vec![SocketAddr::new(v6.into(), port)]),
        Some(url::Host::Domain(d)) => {
            let found: Vec<SocketAddr> = tokio::net::lookup_host((d, port))
                .await
                .map_err(|_| ProbeError::Resolve(d.to_owned()))?
                .collect();
            if found.is_empty() {
                return Err(ProbeError::Resolve(d.to_owned()));
            }
            (d.to_owned(), found)
        }
        None => return Err(ProbeError::Refused("the URL has no host".into())),
    };
    for a in &addresses {
        if let Some(why) = address_refusal(a.ip(), policy) {
            return Err(ProbeError::Refused(format!(
                "{host} resolves to {}, {why}, which Strata never contacts",
                a.ip()
            )));
        }
    }
    let mut stream = None;
    for a in &addresses {
        if let Ok(s) = TcpStream::connect(a).await {
            stream = Some(s);
            break;
        }
    }
    let stream = stream.ok_or_else(|| ProbeError::Connect(format!("{host}:{port}")))?;
    let host_header = match (url.host(), url.port()) {
        (Some(url::Host::Ipv6(v6)), Some(p)) => format!("[{v6}]:{p}"),
        (Some(url::Host::Ipv6(v6)), None) => format!("[{v6}]"),
        (_, Some(p)) => format!("{host}:{p}"),
        (_, None) => host.clone(),
    };
    let mut request = format!(
        "GET {}{} HTTP/1.1\r\nHost: {host_header}\r\nUser-Agent: strata/{}\r\nAccept: application/json\r\nConnection: close\r\n",
        url.path(),
        url.query().map(|q| format!("?{q}")).unwrap_or_default(),
        crate::VERSION,
    );
    for (k, v) in headers {
        request.push_str(&format!("{k}: {v}\r\n"));
    }
    request.push_str("\r\n");
    if url.scheme() == "https" {
        let name = ServerName::try_from(host.clone())
            .map_err(|_| ProbeError::Tls(host.clone()))?
            .to_owned();
        let tls = TlsConnector::from(tls_config().map_err(|_| ProbeError::Tls(host.clone()))?)
            .connect(name, stream)
            .await
            .map_err(|_| ProbeError::Tls(host.clone()))?;
        status_of(tls, &request).await
    } else {
        status_of(stream, &request).await
    }
}

fn tls_config() -> Result<Arc<ClientConfig>, tokio_rustls::rustls::Error> {
    let mut roots = RootCertStore::empty();
    roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    let provider = Arc::new(tokio_rustls::rustls::crypto::ring::default_provider());
    Ok(Arc::new(
        ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()?
            .with_root_certificates(roots)
            .with_no_client_auth(),
    ))
}

/// Sends the request and reads the status code of the answer's status line.
async fn status_of<S: AsyncRead + AsyncWrite + Unpin>(
    mut stream: S,
    request: &str,
) -> Result<u16, ProbeError> {
    stream
        .write_all(request.as_bytes())
        .await
        .map_err(|_| ProbeError::Protocol)?;
    let mut line = Vec::with_capacity(128);
    let mut buffer = [0u8; 512];
    while !line.windows(2).any(|w| w == b"\r\n") && line.len() < STATUS_LINE_MAX {
        match stream.read(&mut buffer).await {
            Ok(0) | Err(_) => break,
            Ok(n) => line.extend_from_slice(buffer.get(..n).unwrap_or_default()),
        }
    }
    parse_status(&line).ok_or(ProbeError::Protocol)
}

/// The status code of `HTTP/1.x NNN reason`.
fn parse_status(bytes: &[u8]) -> Option<u16> {
    let text = std::str::from_utf8(bytes.get(..bytes.len().min(64))?).ok()?;
    let mut parts = text.split(' ');
    let version = parts.next()?;
    if !version.starts_with("HTTP/1.") {
        return None;
    }
    let code = parts.next()?.trim();
    if code.len() != 3 {
        return None;
    }
    code.parse().ok().filter(|c| (100..600).contains(c))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::net::TcpListener;

    fn ip(s: &str) -> IpAddr {
        s.parse().expect("address")
    }

    #[test]
    fn address_classes() {
        use AddressPolicy::{LocalNetwork, PublicOnly};
        for bad in [
            "169.254.169.254",
            "0.0.0.0",
            "224.0.0.1",
            "255.255.255.255",
            "100.100.100.200",
            "fe80::1",
            "fd00:ec2::254",
            "::",
            "::ffff:169.254.169.254",
        ] {
            assert!(address_refusal(ip(bad), LocalNetwork).is_some(), "{bad}");
            assert!(address_refusal(ip(bad), PublicOnly).is_some(), "{bad}");
        }
        for local in [
            "127.0.0.1",
            "::1",
            "10.1.2.3",
            "192.168.1.10",
            "172.16.0.5",
            "fd12::1",
        ] {
            assert_eq!(address_refusal(ip(local), LocalNetwork), None, "{local}");
            assert!(address_refusal(ip(local), PublicOnly).is_some(), "{local}");
        }
        assert_eq!(address_refusal(ip("93.184.216.34"), PublicOnly), None);
        assert_eq!(address_refusal(ip("2606:4700::1"), LocalNetwork), None);
    }

    #[test]
    fn urls_refused_before_any_lookup() {
        let url = |s: &str| Url::parse(s).expect("url");
        let local = AddressPolicy::LocalNetwork;
        assert!(url_refusal(&url("http://169.254.169.254/latest"), local).is_some());
        assert!(url_refusal(&url("http://metadata.google.internal/"), local).is_some());
        assert!(url_refusal(&url("http://[fe80::1]:11434/"), local).is_some());
        assert!(url_refusal(&url("file:///etc/passwd"), local).is_some());
        assert!(url_refusal(&url("http://user:pw@localhost:11434/"), local).is_some());
        assert_eq!(url_refusal(&url("http://localhost:11434/"), local), None);
        assert!(url_refusal(&url("http://127.0.0.1:11434/"), AddressPolicy::PublicOnly).is_some());
    }

    #[test]
    fn status_lines() {
        assert_eq!(parse_status(b"HTTP/1.1 200 OK\r\n"), Some(200));
        assert_eq!(parse_status(b"HTTP/1.0 404 Not Found\r\n"), Some(404));
        assert_eq!(parse_status(b"SSH-2.0-OpenSSH\r\n"), None);
        assert_eq!(parse_status(b""), None);
    }

    #[tokio::test]
    async fn a_silent_server_times_out_and_a_closed_port_fails_to_connect() {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        // Accepts and then says nothing.
        let silent = tokio::spawn(async move {
            let (_socket, _) = listener.accept().await.expect("accept");
            tokio::time::sleep(Duration::from_secs(5)).await;
        });
        let url = Url::parse(&format!("http://{addr}/api/tags")).expect("url");
        let e = get(
            &url,
            &[],
            AddressPolicy::LocalNetwork,
            Duration::from_millis(200),
        )
        .await
        .expect_err("timeout");
        assert_eq!(e, ProbeError::Timeout(200));
        silent.abort();

        let closed = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = closed.local_addr().expect("addr");
        drop(closed);
        let url = Url::parse(&format!("http://{addr}/")).expect("url");
        let e = get(
            &url,
            &[],
            AddressPolicy::LocalNetwork,
            Duration::from_secs(2),
        )
        .await
        .expect_err("refused");
        assert!(matches!(e, ProbeError::Connect(_)), "{e:?}");

        // A public-only check never reaches this host.
        let e = get(&url, &[], AddressPolicy::PublicOnly, Duration::from_secs(2))
            .await
            .expect_err("refused");
        assert!(matches!(e, ProbeError::Refused(_)), "{e:?}");
    }

    #[tokio::test]
    async fn the_status_and_the_request_sent() {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        let server = tokio::spawn(async move {
            let (mut socket, _) = listener.accept().await.expect("accept");
            let mut buf = vec![0u8; 4096];
            let n = socket.read(&mut buf).await.expect("read");
            socket
                .write_all(b"HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n")
                .await
                .expect("write");
            String::from_utf8_lossy(&buf[..n]).into_owned()
        });
        let url = Url::parse(&format!("http://{addr}/v1/x?a=1")).expect("url");
        let answer = get(
            &url,
            &[("x-api-key", "k")],
            AddressPolicy::LocalNetwork,
            Duration::from_secs(2),
        )
        .await
        .expect("answer");
        assert_eq!(answer.status, 204);
        let request = server.await.expect("server");
        assert!(
            request.starts_with("GET /v1/x?a=1 HTTP/1.1\r\n"),
            "{request}"
        );
        assert!(request.contains(&format!("Host: {addr}\r\n")), "{request}");
        assert!(request.contains("x-api-key: k\r\n"), "{request}");
    }
}
