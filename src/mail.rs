//! Outgoing mail over SMTP (lettre, async). STARTTLS is used whenever the server offers it.
//!
//! Mail counts as configured when `SMTP_USER` and `SMTP_PASSWORD` are set (spec 3.2). A send
//! that fails is reported to the caller, which keeps its request retryable; it is never a
//! silent loss and never a 500.

use std::time::Duration;

use lettre::message::Mailbox;
use lettre::message::header::ContentType;
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Tls, TlsParameters};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use crate::config::SmtpConfig;

/// One message to send.
#[derive(Debug, Clone)]
pub struct OutgoingMail {
    /// Recipient address.
    pub to: String,
    /// Subject line.
    pub subject: String,
    /// Plain-text body.
    pub body: String,
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
        let host = config.host.clone().unwrap_or_else(|| "localhost".into());
        let port = config.port.unwrap_or(587);
        let tls = match TlsParameters::new(host.clone()) {
            Ok(params) => Tls::Opportunistic(params),
            Err(e) => {
                tracing::warn!(error = %e, "cannot set up TLS for SMTP; sending without it");
                Tls::None
            }
        };
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

    /// True when mail is configured.
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
        let message = Message::builder()
            .from(from)
            .to(to)
            .subject(mail.subject.clone())
            .header(ContentType::TEXT_PLAIN)
            .body(mail.body)
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
