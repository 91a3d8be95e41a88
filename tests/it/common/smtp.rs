//! A small real SMTP server for tests: speaks ESMTP over TCP on 127.0.0.1 (EHLO, AUTH PLAIN
//! and LOGIN, MAIL, RCPT, DATA, RSET, NOOP, QUIT), checks the credentials and keeps every
//! message it accepts. It advertises no STARTTLS; it listens on loopback, where the mailer
//! may send in the clear. It can be told to be slow or to refuse the first messages.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::Engine;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

/// One accepted message.
#[derive(Debug, Clone)]
pub struct Mail {
    /// Envelope recipients.
    pub to: Vec<String>,
    /// The raw message (headers and body).
    pub data: String,
}

impl Mail {
    /// The body with quoted-printable soft line breaks undone.
    pub fn text(&self) -> String {
        self.data.replace("=\r\n", "").replace("=3D", "=")
    }
}

/// How the server misbehaves (the default: it does not).
#[derive(Debug, Clone, Copy, Default)]
pub struct Behaviour {
    /// Pause before the greeting of every session (a slow server).
    pub delay: Duration,
    /// Refuse this many messages at DATA with a temporary error (451) before accepting.
    pub refuse_first: usize,
}

/// The running server.
pub struct SmtpServer {
    /// Its port.
    pub port: u16,
    mails: Arc<Mutex<Vec<Mail>>>,
}

/// The user and password the server accepts.
pub const SMTP_USER: &str = "strata@example.com";
/// See [`SMTP_USER`].
pub const SMTP_PASSWORD: &str = "smtp-secret";

impl SmtpServer {
    /// Starts the server on a free port.
    pub async fn start() -> SmtpServer {
        Self::start_with(Behaviour::default()).await
    }

    /// Starts a server that behaves as told.
    pub async fn start_with(behaviour: Behaviour) -> SmtpServer {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind smtp");
        let port = listener.local_addr().expect("addr").port();
        let mails = Arc::new(Mutex::new(Vec::new()));
        let store = mails.clone();
        let refusals = Arc::new(Mutex::new(behaviour.refuse_first));
        tokio::spawn(async move {
            while let Ok((socket, _)) = listener.accept().await {
                let store = store.clone();
                let refusals = refusals.clone();
                tokio::spawn(async move {
                    tokio::time::sleep(behaviour.delay).await;
                    let _ = session(socket, store, refusals).await;
                });
            }
        });
        SmtpServer { port, mails }
    }

    /// The settings that point the app at this server.
    pub fn vars(&self) -> Vec<(String, String)> {
        vec![
            ("SMTP_HOST".into(), "127.0.0.1".into()),
            ("SMTP_PORT".into(), self.port.to_string()),
            ("SMTP_USER".into(), SMTP_USER.into()),
            ("SMTP_PASSWORD".into(), SMTP_PASSWORD.into()),
            ("SMTP_FROM_EMAIL".into(), "noreply@example.com".into()),
            ("ADMIN_APPROVAL_EMAIL".into(), "approver@example.com".into()),
        ]
    }

    /// Every message accepted so far.
    pub fn mails(&self) -> Vec<Mail> {
        self.mails.lock().expect("lock").clone()
    }

    /// Waits (up to 5 s) until `n` messages have arrived.
    pub async fn wait_for(&self, n: usize) -> Vec<Mail> {
        self.wait_for_within(n, Duration::from_secs(5)).await
    }

    /// Waits up to `limit` until `n` messages have arrived.
    pub async fn wait_for_within(&self, n: usize, limit: Duration) -> Vec<Mail> {
        let rounds = (limit.as_millis() / 50).max(1);
        for _ in 0..rounds {
            let mails = self.mails();
            if mails.len() >= n {
                return mails;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("expected {n} mails, got {:?}", self.mails());
    }
}

async fn session(
    socket: tokio::net::TcpStream,
    store: Arc<Mutex<Vec<Mail>>>,
    refusals: Arc<Mutex<usize>>,
) -> std::io::Result<()> {
    let (read, mut write) = socket.into_split();
    let mut lines = BufReader::new(read);
    write.write_all(b"220 test-smtp ESMTP ready\r\n").await?;
    let mut authed = false;
    let mut to = Vec::new();
    let mut line = String::new();
    let b64 = base64::engine::general_purpose::STANDARD;
    loop {
        line.clear();
        if lines.read_line(&mut line).await? == 0 {
            return Ok(());
        }
        let cmd = line.trim_end().to_string();
        let upper = cmd.to_ascii_uppercase();
        let reply: String = if upper.starts_with("EHLO") || upper.starts_with("HELO") {
            "250-test-smtp\r\n250-AUTH PLAIN LOGIN\r\n250 8BITMIME\r\n".into()
        } else if upper.starts_with("AUTH PLAIN") {
            let arg = cmd.split_whitespace().nth(2).map(str::to_string);
            let arg = match arg {
                Some(a) => a,
                None => {
                    write.write_all(b"334 \r\n").await?;
                    line.clear();
                    lines.read_line(&mut line).await?;
                    line.trim().to_string()
                }
            };
            let decoded = b64.decode(arg).unwrap_or_default();
            let parts: Vec<&[u8]> = decoded.split(|b| *b == 0).collect();
            let ok = parts.len() == 3
                && parts[1] == SMTP_USER.as_bytes()
                && parts[2] == SMTP_PASSWORD.as_bytes();
            authed = ok;
            if ok {
                "235 Authentication succeeded\r\n".into()
            } else {
                "535 Invalid credentials\r\n".into()
            }
        } else if upper.starts_with("AUTH LOGIN") {
            write.write_all(b"334 VXNlcm5hbWU6\r\n").await?;
            line.clear();
            lines.read_line(&mut line).await?;
            let user = b64.decode(line.trim()).unwrap_or_default();
            write.write_all(b"334 UGFzc3dvcmQ6\r\n").await?;
            line.clear();
            lines.read_line(&mut line).await?;
            let pass = b64.decode(line.trim()).unwrap_or_default();
            authed = user == SMTP_USER.as_bytes() && pass == SMTP_PASSWORD.as_bytes();
            if authed {
                "235 Authentication succeeded\r\n".into()
            } else {
                "535 Invalid credentials\r\n".into()
            }
        } else if upper.starts_with("MAIL FROM") {
            if authed {
                "250 OK\r\n".into()
            } else {
                "530 Authentication required\r\n".into()
            }
        } else if upper.starts_with("RCPT TO") {
            let addr = cmd[8..]
                .trim()
                .trim_start_matches('<')
                .trim_end_matches('>')
                .to_string();
            to.push(addr);
            "250 OK\r\n".into()
        } else if upper == "DATA" {
            write
                .write_all(b"354 Start mail input; end with <CRLF>.<CRLF>\r\n")
                .await?;
            let mut data = String::new();
            loop {
                line.clear();
                if lines.read_line(&mut line).await? == 0 {
                    return Ok(());
                }
                if line == ".\r\n" || line == ".\n" {
                    break;
                }
                data.push_str(
                    line.strip_prefix('.')
                        .filter(|_| line.starts_with(".."))
                        .unwrap_or(&line),
                );
            }
            let refuse = {
                let mut left = refusals.lock().expect("lock");
                let refuse = *left > 0;
                *left = left.saturating_sub(1);
                refuse
            };
            if refuse {
                to.clear();
                "451 Temporary failure, try again later\r\n".into()
            } else {
                store.lock().expect("lock").push(Mail {
                    to: std::mem::take(&mut to),
                    data,
                });
                "250 OK: queued\r\n".into()
            }
        } else if upper == "RSET" {
            to.clear();
            "250 OK\r\n".into()
        } else if upper == "NOOP" {
            "250 OK\r\n".into()
        } else if upper == "QUIT" {
            write.write_all(b"221 Bye\r\n").await?;
            return Ok(());
        } else {
            "502 Command not implemented\r\n".into()
        };
        write.write_all(reply.as_bytes()).await?;
    }
}
