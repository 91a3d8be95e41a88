//! Outgoing mail over SMTP (lettre, async), protected as `SMTP_SECURITY` says (see
//! [`SmtpSecurity`]): required STARTTLS or implicit TLS, never a silent fall-back to plain
//! text; plain only towards a loopback server or when explicitly chosen.
//!
//! Mail counts as configured when `SMTP_USER` and `SMTP_PASSWORD` are set (spec 3.2).
//! Requests never send mail themselves: they enqueue a [`SendMail`] job (see `crate::platform::jobs`)
//! in the same transaction as their business rows, and the worker sends it with retries.

use std::time::Duration;

use lettre::message::header::ContentType;
use lettre::message::{Attachment, Mailbox, MultiPart, SinglePart};
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Tls, TlsParameters};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use crate::platform::config::{SmtpConfig, SmtpSecurity};

/// One message to send (also the payload of the [`SendMail`] job).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct OutgoingMail {
    /// Recipient address.
    pub to: String,
    /// Subject line.
    pub subject: String,
    /// Plain-text body.
    pub body: String,
    /// Files sent with it (an invoice's PDF).
    #[serde(default)]
    pub attachments: Vec<MailAttachment>,
}

/// A file sent with a message.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct MailAttachment {
    /// The file name the recipient sees.
    pub filename: String,
    /// Its media type.
    pub content_type: String,
    /// The bytes, base64 (standard alphabet, padded).
    pub content_base64: String,
}

impl MailAttachment {
    /// A generated document as an attachment.
    pub fn of(document: &crate::platform::documents::GeneratedDocument) -> MailAttachment {
        MailAttachment {
            filename: document.filename.clone(),
            content_type: document.content_type.clone(),
            content_base64: document.content_base64.clone(),
        }
    }
}

/// Why a message was not sent.
#[derive(Debug, thiserror::Error)]
pub enum MailError {
    /// Mail is not configured.
    #[error("mail is not configured")]
    NotConfigured,
    /// An address or the message could not be built.
    #[error("invalid message: {0}")]
    Invalid(String),
    /// The SMTP exchange failed.
    #[error("SMTP delivery failed: {0}")]
    Delivery(String),
}

/// The configured mail transport (or none).
#[derive(Clone)]
pub struct Mailer {
    transport: Option<AsyncSmtpTransport<Tokio1Executor>>,
    from: Option<Mailbox>,
    admin_approval_email: Option<String>,
}

impl Mailer {
    /// A mailer that sends nothing (mail not configured).
    pub fn disabled() -> Mailer {
        Mailer {
            transport: None,
            from: None,
            admin_approval_email: None,
        }
    }

    /// Builds the transport from the `SMTP_*` settings.
    pub fn from_config(config: &SmtpConfig) -> Mailer {
        if !config.is_configured() {
            return Mailer::disabled();
        }
        let host = config.host_or_default().to_string();
        let security = config.security();
        let port = config.port.unwrap_or(match security {
            SmtpSecurity::Tls => 465,
            SmtpSecurity::StartTls | SmtpSecurity::None => 587,
        });
        let tls = match transport_tls(security, &host) {
            Ok(tls) => tls,
            Err(e) => {
                // Refusing to send beats sending credentials in the clear: every send fails
                // (and is retried and logged) until the setting is fixed.
                tracing::error!(error = %e, "cannot set up TLS for SMTP; mail will not be sent");
                return Mailer {
                    transport: None,
                    from: None,
                    admin_approval_email: config.admin_approval_email.clone(),
                };
            }
        };
        if security == SmtpSecurity::None {
            tracing::warn!(host = %host, "SMTP without TLS (SMTP_SECURITY=none or a loopback host)");
        }
        let mut builder = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(host)
            .port(port)
            .tls(tls)
            .timeout(Some(Duration::from_secs(10)));
        if let (Some(user), Some(password)) = (&config.user, &config.password) {
            builder = builder.credentials(Credentials::new(
                user.clone(),
                password.expose().to_string(),
            ));
        }
        let from_address = config
            .from_email
            .clone()
            .or_else(|| config.user.clone().filter(|u| u.contains('@')))
            .unwrap_or_else(|| "no-reply@strata.invalid".into());
        let from = from_address.parse::<lettre::Address>().ok().map(|addr| {
            Mailbox::new(
                Some(
                    config
                        .from_name
                        .clone()
                        .unwrap_or_else(|| "Strata".to_string()),
                ),
                addr,
            )
        });
        Mailer {
            transport: Some(builder.build()),
            from,
            admin_approval_email: config.admin_approval_email.clone(),
        }
    }

    /// True when mail is configured (and its transport could be set up).
    pub fn is_configured(&self) -> bool {
        self.transport.is_some()
    }

    /// Who approves password resets.
    pub fn admin_approval_email(&self) -> Option<&str> {
        self.admin_approval_email.as_deref()
    }

    /// Sends one message.
    pub async fn send(&self, mail: OutgoingMail) -> Result<(), MailError> {
        let Some(transport) = &self.transport else {
            return Err(MailError::NotConfigured);
        };
        let from = self
            .from
            .clone()
            .ok_or_else(|| MailError::Invalid("SMTP_FROM_EMAIL is not an address".into()))?;
        let to: Mailbox = mail
            .to
            .parse()
            .map_err(|e| MailError::Invalid(format!("recipient: {e}")))?;
        let builder = Message::builder()
            .from(from)
            .to(to)
            .subject(mail.subject.clone());
        let message = if mail.attachments.is_empty() {
            builder.header(ContentType::TEXT_PLAIN).body(mail.body)
        } else {
            let mut parts = MultiPart::mixed().singlepart(SinglePart::plain(mail.body));
            for file in mail.attachments {
                use base64::Engine as _;
                let bytes = base64::engine::general_purpose::STANDARD
                    .decode(file.content_base64.as_bytes())
                    .map_err(|e| {
                        MailError::Invalid(format!("attachment {}: {e}", file.filename))
                    })?;
                let kind = ContentType::parse(&file.content_type).map_err(|e| {
                    MailError::Invalid(format!("attachment {}: {e}", file.filename))
                })?;
                parts = parts.singlepart(Attachment::new(file.filename).body(bytes, kind));
            }
            builder.multipart(parts)
        }
        .map_err(|e| MailError::Invalid(e.to_string()))?;
        match transport.send(message).await {
            Ok(_) => {
                tracing::info!(subject = %mail.subject, "mail sent");
                Ok(())
            }
            Err(e) => {
                tracing::error!(error = %e, subject = %mail.subject, "mail delivery failed");
                Err(MailError::Delivery(e.to_string()))
            }
        }
    }
}

/// The warning for a production server without mail (spec 5.7: password resets are then
/// approved automatically and the link is returned to whoever asks), or `None`.
pub fn production_warning(config: &crate::platform::config::Config) -> Option<&'static str> {
    (config.is_production() && !config.smtp.is_configured()).then_some(
        "mail is not configured (SMTP_USER, SMTP_PASSWORD): password resets are approved automatically and the reset link is returned to the requester",
    )
}

/// The lettre TLS mode for a security setting: `Required` for STARTTLS (the exchange stops
/// when the server does not offer it), `Wrapper` for implicit TLS, `None` only when chosen.
pub fn transport_tls(
    security: SmtpSecurity,
    host: &str,
) -> Result<Tls, lettre::transport::smtp::Error> {
    Ok(match security {
        SmtpSecurity::StartTls => Tls::Required(TlsParameters::new(host.to_string())?),
        SmtpSecurity::Tls => Tls::Wrapper(TlsParameters::new(host.to_string())?),
        SmtpSecurity::None => Tls::None,
    })
}

/// The job that sends one message. Retried with backoff when the server refuses or is down.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct SendMail(pub OutgoingMail);

#[async_trait::async_trait]
impl crate::platform::jobs::Job for SendMail {
    const KIND: &'static str = "send_mail";

    async fn run(
        self,
        ctx: &crate::platform::jobs::JobContext,
    ) -> Result<(), crate::platform::jobs::JobError> {
        match ctx.mailer.send(self.0).await {
            Ok(()) => Ok(()),
            // A broken address or sender never gets better: stop retrying.
            Err(e @ MailError::Invalid(_)) => Err(crate::platform::jobs::JobError::permanent(e)),
            Err(e) => Err(crate::platform::jobs::JobError::retry(e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starttls_is_required_and_never_opportunistic() {
        assert!(matches!(
            transport_tls(SmtpSecurity::StartTls, "smtp.example.com"),
            Ok(Tls::Required(_))
        ));
        assert!(matches!(
            transport_tls(SmtpSecurity::Tls, "smtp.example.com"),
            Ok(Tls::Wrapper(_))
        ));
        assert!(matches!(
            transport_tls(SmtpSecurity::None, "127.0.0.1"),
            Ok(Tls::None)
        ));
    }
}
