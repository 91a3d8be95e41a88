//! The AI assistant settings (CONTRACT 5.16, `/settings/ai`): whether the assistant is on,
//! which provider and model it uses. Strata ships no AI integration yet, so the stored
//! default is the disabled state; admins may record a choice ahead of it. API keys are not
//! stored here (they belong in the deployment's secrets). The settings are one JSON value in
//! `service_metadata` under [`AI_SETTINGS_KEY`], so no table is needed for four fields.

use async_graphql::{Context, Enum, InputObject, MaybeUndefined, Object, SimpleObject};
use diesel::prelude::*;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use serde::{Deserialize, Serialize};

use crate::master_data::audit::{AuditEvent, Outcome};
use crate::platform::auth::Access;
use crate::platform::auth::RequestMeta;
use crate::platform::auth::viewer::{CurrentUser, current_user};
use crate::platform::db::schema::service_metadata;
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::context;
use crate::platform::graphql::user_error::{UserError, UserErrorCode};
use crate::platform::outbound::{self, AddressPolicy};

/// The `service_metadata` key that holds the AI settings.
pub const AI_SETTINGS_KEY: &str = "settings.ai";

/// The longest model name accepted.
const MAX_MODEL_CHARS: usize = 100;

/// Which AI service the assistant talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, Serialize, Deserialize)]
#[graphql(rename_items = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum AiProvider {
    /// Anthropic's hosted API (data leaves the installation).
    Anthropic,
    /// A local Ollama server (data stays on the network).
    Ollama,
}

/// The AI assistant settings.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, SimpleObject)]
#[serde(default)]
pub struct AiSettings {
    /// Whether the assistant is on (false until an admin turns it on).
    pub enabled: bool,
    /// The provider, when one is chosen.
    pub provider: Option<AiProvider>,
    /// The model name (`claude-...`, `llama3`), when one is chosen.
    pub model: Option<String>,
    /// The Ollama server's base URL (`http://localhost:11434`), for the Ollama provider.
    pub ollama_url: Option<String>,
}

/// Changes to the AI settings: omitted fields keep their value, `null` clears.
#[derive(Debug, Clone, Default, InputObject)]
pub struct AiSettingsInput {
    /// Turn the assistant on (needs a provider) or off.
    pub enabled: Option<bool>,
    /// The provider (`anthropic` or `ollama`).
    pub provider: MaybeUndefined<AiProvider>,
    /// The model name (at most 100 characters; blank clears).
    pub model: MaybeUndefined<String>,
    /// The Ollama server's base URL (`http://` or `https://`; blank clears).
    pub ollama_url: MaybeUndefined<String>,
}

/// The result of an AI settings change.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct AiSettingsPayload {
    /// The settings after the change.
    pub settings: Option<AiSettings>,
    /// Rule violations (nothing was changed when present).
    pub user_errors: Vec<UserError>,
}

fn text(change: MaybeUndefined<String>, current: Option<String>) -> Option<String> {
    match change {
        MaybeUndefined::Undefined => current,
        MaybeUndefined::Null => None,
        MaybeUndefined::Value(v) => Some(v.trim().to_owned()).filter(|v| !v.is_empty()),
    }
}

/// The settings after `input`, or every rule it breaks.
pub fn apply(current: AiSettings, input: AiSettingsInput) -> Result<AiSettings, Vec<UserError>> {
    let mut errors = Vec::new();
    let next = AiSettings {
        enabled: input.enabled.unwrap_or(current.enabled),
        provider: match input.provider {
            MaybeUndefined::Undefined => current.provider,
            MaybeUndefined::Null => None,
            MaybeUndefined::Value(p) => Some(p),
        },
        model: text(input.model, current.model),
        ollama_url: text(input.ollama_url, current.ollama_url),
    };
    if next
        .model
        .as_deref()
        .is_some_and(|m| m.chars().count() > MAX_MODEL_CHARS)
    {
        errors.push(UserError::new(
            "model",
            UserErrorCode::Invalid,
            format!("String should have at most {MAX_MODEL_CHARS} characters"),
        ));
    }
    if let Some(u) = next.ollama_url.as_deref() {
        match url::Url::parse(u) {
            Ok(u) if matches!(u.scheme(), "http" | "https") && u.host().is_some() => {
                // Ollama runs beside Strata by design (this host or the LAN); link-local and
                // cloud metadata addresses are never a model server.
                if let Some(why) = outbound::url_refusal(&u, AddressPolicy::LocalNetwork) {
                    errors.push(UserError::new(
                        "ollamaUrl",
                        UserErrorCode::Invalid,
                        format!("Refused: {why}"),
                    ));
                }
            }
            _ => errors.push(UserError::new(
                "ollamaUrl",
                UserErrorCode::Invalid,
                "Must be an http:// or https:// URL",
            )),
        }
    }
    if next.enabled && next.provider.is_none() {
        errors.push(UserError::new(
            "provider",
            UserErrorCode::Invalid,
            "Choose a provider before enabling the AI assistant",
        ));
    }
    if errors.is_empty() {
        Ok(next)
    } else {
        Err(errors)
    }
}

/// The stored AI settings (the disabled default when none are stored).
pub async fn current(conn: &mut AsyncPgConnection) -> AppResult<AiSettings> {
    read(conn, false).await
}

/// Applies `input` in one transaction with the stored value locked; a real change is
/// written and recorded in the security audit log (`settings_changed`, section `ai`, the
/// changed fields; never values) in the same transaction.
pub async fn update(
    conn: &mut AsyncPgConnection,
    actor: &CurrentUser,
    meta: Option<&RequestMeta>,
    input: AiSettingsInput,
) -> AppResult<Result<AiSettings, Vec<UserError>>> {
    let actor = actor.clone();
    let meta = meta.cloned();
    conn.transaction::<_, AppError, _>(async move |conn| {
        // Lock the row (when there is one) so two admins' changes apply one after the other.
        let current = read(conn, true).await?;
        let next = match apply(current.clone(), input) {
            Ok(next) => next,
            Err(user_errors) => return Ok(Err(user_errors)),
        };
        if next != current {
            let json = serde_json::to_string(&next).map_err(AppError::internal)?;
            diesel::insert_into(service_metadata::table)
                .values((
                    service_metadata::key.eq(AI_SETTINGS_KEY),
                    service_metadata::value.eq(&json),
                    service_metadata::updated_at.eq(diesel::dsl::now),
                ))
                .on_conflict(service_metadata::key)
                .do_update()
                .set((
                    service_metadata::value.eq(&json),
                    service_metadata::updated_at.eq(diesel::dsl::now),
                ))
                .execute(conn)
                .await?;
            let mut fields = Vec::new();
            if next.enabled != current.enabled {
                fields.push("enabled");
            }
            if next.provider != current.provider {
                fields.push("provider");
            }
            if next.model != current.model {
                fields.push("model");
            }
            if next.ollama_url != current.ollama_url {
                fields.push("ollama_url");
            }
            crate::master_data::audit::record_in(
                conn,
                meta.as_ref(),
                &AuditEvent::new("settings_changed", Outcome::Success)
                    .user(actor.id, &actor.email)
                    .details(serde_json::json!({ "section": "ai", "fields": fields })),
            )
            .await?;
        }
        Ok(Ok(next))
    })
    .await
}

async fn read(conn: &mut AsyncPgConnection, lock: bool) -> AppResult<AiSettings> {
    let q = service_metadata::table
        .find(AI_SETTINGS_KEY)
        .select(service_metadata::value);
    let stored: Option<String> = if lock {
        q.for_update().first(conn).await.optional()?
    } else {
        q.first(conn).await.optional()?
    };
    Ok(match stored {
        Some(json) => serde_json::from_str(&json).map_err(AppError::internal)?,
        None => AiSettings::default(),
    })
}

/// AI settings queries.
#[derive(Default)]
pub struct SettingsAiQuery;

#[Object]
impl SettingsAiQuery {
    /// The AI assistant settings (any signed-in user; disabled until an admin sets them).
    #[graphql(guard = "Access::User")]
    async fn ai_settings(&self, ctx: &Context<'_>) -> AppResult<AiSettings> {
        read(&mut *context::conn(ctx).await?, false).await
    }
}

/// AI settings mutations.
#[derive(Default)]
pub struct SettingsAiMutation;

#[Object]
impl SettingsAiMutation {
    /// Changes the AI assistant settings (admins); recorded in the security audit log.
    #[graphql(guard = "Access::Admin")]
    async fn ai_settings_update(
        &self,
        ctx: &Context<'_>,
        input: AiSettingsInput,
    ) -> AppResult<AiSettingsPayload> {
        let actor = current_user(ctx).await?;
        let mut conn = context::conn(ctx).await?;
        Ok(
            match update(&mut conn, &actor, context::meta(ctx), input).await? {
                Ok(settings) => AiSettingsPayload {
                    settings: Some(settings),
                    user_errors: vec![],
                },
                Err(user_errors) => AiSettingsPayload {
                    settings: None,
                    user_errors,
                },
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enabling_needs_a_provider_and_urls_must_be_http() {
        let on = AiSettingsInput {
            enabled: Some(true),
            ..Default::default()
        };
        assert!(apply(AiSettings::default(), on).is_err());
        let ollama = AiSettingsInput {
            enabled: Some(true),
            provider: MaybeUndefined::Value(AiProvider::Ollama),
            ollama_url: MaybeUndefined::Value("http://localhost:11434".into()),
            model: MaybeUndefined::Value(" llama3 ".into()),
        };
        let next = apply(AiSettings::default(), ollama).expect("valid");
        assert_eq!(next.model.as_deref(), Some("llama3"));
        let bad = AiSettingsInput {
            ollama_url: MaybeUndefined::Value("file:///etc/passwd".into()),
            ..Default::default()
        };
        assert!(apply(AiSettings::default(), bad).is_err());
    }
}
