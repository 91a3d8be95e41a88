//! Testing the AI provider connection (`POST /settings/ai/test`, admins): the stored
//! configuration is checked (a provider chosen; for Anthropic the `ANTHROPIC_API_KEY` of
//! the environment, for Ollama a well-formed server URL), then one `GET` with a 5-second
//! limit tells whether the provider answers. A missing or unusable configuration is a 400;
//! a provider that does not answer is a test result (`success: false`, 200).
//!
//! Address policy (see [`crate::platform::outbound`]): Ollama is a local provider by design, so its
//! URL may name this host (`http://localhost:11434`) or a private network address; never a
//! link-local or cloud metadata address. Anthropic is reached only at its public API host,
//! and only if that name resolves to public addresses. No redirect is followed and only the
//! status line is read. Each test is recorded in the security audit log.

use std::time::Duration;

use async_graphql::{Context, Object, SimpleObject};

use crate::master_data::audit::{AuditEvent, Outcome};
use crate::master_data::settings::ai::{self, AiProvider, AiSettings};
use crate::platform::auth::Access;
use crate::platform::auth::viewer::current_user;
use crate::platform::error::AppResult;
use crate::platform::graphql::context;
use crate::platform::graphql::user_error::{UserError, UserErrorCode};
use crate::platform::outbound::{self, AddressPolicy, ProbeError};

/// The longest a connection test waits for an answer.
pub const TEST_TIMEOUT: Duration = Duration::from_secs(5);

/// Where Anthropic's API lists the models a key may use (a cheap authenticated `GET`).
pub const ANTHROPIC_MODELS_URL: &str = "https://api.anthropic.com/v1/models";

/// The Anthropic API version header sent with the test.
const ANTHROPIC_VERSION: &str = "2023-06-01";

/// The outcome of a connection test.
#[derive(Debug, Clone, SimpleObject)]
pub struct AiConnectionTest {
    /// Whether the provider answered and accepted the request.
    pub success: bool,
    /// What happened, for people.
    pub message: String,
    /// The provider tested.
    pub provider: AiProvider,
    /// How long the answer took (resolution included), when one came.
    pub latency_ms: Option<i64>,
}

/// The result of a connection test.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct AiConnectionTestPayload {
    /// The test's outcome (absent when the configuration does not allow a test).
    pub result: Option<AiConnectionTest>,
    /// Why no test could run (a missing provider, key or URL).
    pub user_errors: Vec<UserError>,
}

/// What a test contacts, once the configuration has been checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// The provider.
    pub provider: AiProvider,
    /// The URL requested.
    pub url: url::Url,
    /// Which addresses it may resolve to.
    pub policy: AddressPolicy,
}

fn refused(field: &str, message: impl Into<String>) -> Vec<UserError> {
    vec![UserError::new(field, UserErrorCode::NotAllowed, message)]
}

/// The URL a test requests for these settings, or why none can be tested.
pub fn target(settings: &AiSettings, api_key: Option<&str>) -> Result<Target, Vec<UserError>> {
    let Some(provider) = settings.provider else {
        return Err(refused(
            "provider",
            "Choose an AI provider before testing the connection",
        ));
    };
    match provider {
        AiProvider::Ollama => {
            let Some(raw) = settings.ollama_url.as_deref() else {
                return Err(refused(
                    "ollamaUrl",
                    "Set the Ollama server URL (ollama_url, e.g. http://localhost:11434) before testing the connection",
                ));
            };
            let mut base = match url::Url::parse(raw) {
                Ok(u) if matches!(u.scheme(), "http" | "https") && u.host().is_some() => u,
                _ => {
                    return Err(refused(
                        "ollamaUrl",
                        "The Ollama server URL is not an http:// or https:// URL",
                    ));
                }
            };
            if let Some(why) = outbound::url_refusal(&base, AddressPolicy::LocalNetwork) {
                return Err(refused("ollamaUrl", format!("Refused: {why}")));
            }
            // `http://host:11434/ollama` is a base path: keep it when adding `api/tags`.
            if !base.path().ends_with('/') {
                let path = format!("{}/", base.path());
                base.set_path(&path);
            }
            base.set_query(None);
            base.set_fragment(None);
            let url = base.join("api/tags").map_err(|_| {
                refused(
                    "ollamaUrl",
                    "The Ollama server URL is not an http:// or https:// URL",
                )
            })?;
            Ok(Target {
                provider,
                url,
                policy: AddressPolicy::LocalNetwork,
            })
        }
        AiProvider::Anthropic => {
            if api_key.is_none_or(str::is_empty) {
                return Err(refused(
                    "apiKey",
                    "No Anthropic API key: set ANTHROPIC_API_KEY in the server's environment and restart Strata",
                ));
            }
            let url = url::Url::parse(ANTHROPIC_MODELS_URL)
                .map_err(|_| refused("provider", "The Anthropic API address is malformed"))?;
            Ok(Target {
                provider,
                url,
                policy: AddressPolicy::PublicOnly,
            })
        }
    }
}

fn provider_name(p: AiProvider) -> &'static str {
    match p {
        AiProvider::Anthropic => "Anthropic",
        AiProvider::Ollama => "Ollama",
    }
}

/// Runs the test against `target` (the API key only for Anthropic).
pub async fn run(target: &Target, api_key: Option<&str>, timeout: Duration) -> AiConnectionTest {
    let name = provider_name(target.provider);
    let host = target.url.host_str().unwrap_or_default().to_owned();
    let key_headers;
    let headers: &[(&str, &str)] = match (target.provider, api_key) {
        (AiProvider::Anthropic, Some(key)) => {
            key_headers = [("x-api-key", key), ("anthropic-version", ANTHROPIC_VERSION)];
            &key_headers
        }
        _ => &[],
    };
    let outcome = outbound::get(&target.url, headers, target.policy, timeout).await;
    let (success, message, latency) = match outcome {
        Ok(a) => {
            let ms = i64::try_from(a.latency.as_millis()).unwrap_or(i64::MAX);
            match a.status {
                200..=299 => (
                    true,
                    format!("Connected to {name} at {host} (HTTP {}, {ms} ms)", a.status),
                    Some(ms),
                ),
                401 | 403 => (
                    false,
                    format!("{name} refused the credentials (HTTP {})", a.status),
                    Some(ms),
                ),
                404 if target.provider == AiProvider::Ollama => (
                    false,
                    format!(
                        "{host} answered 404 for {}: is it an Ollama server?",
                        target.url.path()
                    ),
                    Some(ms),
                ),
                s => (false, format!("{name} answered HTTP {s}"), Some(ms)),
            }
        }
        Err(ProbeError::Refused(why)) => (false, format!("Refused: {why}"), None),
        Err(e) => (false, format!("Could not reach {name}: {e}"), None),
    };
    AiConnectionTest {
        success,
        message,
        provider: target.provider,
        latency_ms: latency,
    }
}

/// The connection test's mutation.
#[derive(Default)]
pub struct SettingsAiTestMutation;

#[Object]
impl SettingsAiTestMutation {
    /// Tests the stored AI provider configuration (admins): checks it, then asks the
    /// provider once (5-second limit). A provider that does not answer is a result with
    /// `success: false`; a configuration that cannot be tested is a `userError`. Recorded
    /// in the security audit log.
    #[graphql(guard = "Access::Admin")]
    async fn ai_settings_test(&self, ctx: &Context<'_>) -> AppResult<AiConnectionTestPayload> {
        let actor = current_user(ctx).await?;
        let config = context::config(ctx)?;
        let settings = ai::current(&mut *context::conn(ctx).await?).await?;
        let api_key = config.anthropic_api_key.as_ref().map(|k| k.expose());
        let target = match target(&settings, api_key) {
            Ok(t) => t,
            Err(user_errors) => {
                return Ok(AiConnectionTestPayload {
                    result: None,
                    user_errors,
                });
            }
        };
        let result = run(&target, api_key, TEST_TIMEOUT).await;
        crate::master_data::audit::record(
            context::pool(ctx)?,
            context::meta(ctx),
            AuditEvent::new(
                "ai_connection_test",
                if result.success {
                    Outcome::Success
                } else {
                    Outcome::Failure
                },
            )
            .user(actor.id, &actor.email)
            .details(serde_json::json!({
                "provider": target.provider,
                "host": target.url.host_str(),
                "latency_ms": result.latency_ms,
            })),
        )
        .await;
        Ok(AiConnectionTestPayload {
            result: Some(result),
            user_errors: vec![],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ollama(url: Option<&str>) -> AiSettings {
        AiSettings {
            provider: Some(AiProvider::Ollama),
            ollama_url: url.map(str::to_owned),
            ..Default::default()
        }
    }

    #[test]
    fn what_a_test_contacts() {
        assert!(target(&AiSettings::default(), None).is_err());
        assert!(target(&ollama(None), None).is_err());
        assert!(target(&ollama(Some("http://169.254.169.254/")), None).is_err());
        let t = target(&ollama(Some("http://localhost:11434")), None).expect("target");
        assert_eq!(t.url.as_str(), "http://localhost:11434/api/tags");
        let t = target(&ollama(Some("https://gpu.lan/ollama?x=1")), None).expect("target");
        assert_eq!(t.url.as_str(), "https://gpu.lan/ollama/api/tags");
        let anthropic = AiSettings {
            provider: Some(AiProvider::Anthropic),
            ..Default::default()
        };
        assert!(target(&anthropic, None).is_err());
        assert!(target(&anthropic, Some("")).is_err());
        let t = target(&anthropic, Some("sk-ant-x")).expect("target");
        assert_eq!(t.policy, AddressPolicy::PublicOnly);
        assert_eq!(t.url.as_str(), ANTHROPIC_MODELS_URL);
    }
}
