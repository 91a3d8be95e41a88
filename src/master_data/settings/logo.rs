//! The company logo (CONTRACT 5.16): one PNG or JPEG stored under `UPLOADS_DIR/logo/` with a
//! generated name, recorded as `logo_filename` on the settings row (so `hasLogo` follows it).
//! Anyone may fetch it (it is printed on quotes and shown on the login page); admins replace
//! or remove it, and both changes are in the security audit log.

use async_graphql::{Context, Object, SimpleObject, Upload};
use diesel::prelude::*;
use diesel_async::{AsyncConnection, RunQueryDsl};

use crate::master_data::audit::{AuditEvent, Outcome};
use crate::master_data::settings::graphql::CompanySettings;
use crate::master_data::settings::model::{self, SETTINGS_ID, SettingsRow};
use crate::platform::auth::Access;
use crate::platform::auth::viewer::current_user;
use crate::platform::db::schema::company_settings;
use crate::platform::documents::ImageFormat;
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::context;
use crate::platform::graphql::user_error::{UserError, UserErrorCode};

/// The folder under `UPLOADS_DIR` that holds the logo.
const LOGO_DIR: &str = "logo";

/// The stored logo, as a file to download.
#[derive(Debug, Clone, SimpleObject)]
pub struct CompanyLogo {
    /// The stored file name (generated; also `logoFilename` in the settings).
    pub filename: String,
    /// `image/png` or `image/jpeg`.
    pub content_type: String,
    /// Where the file is, relative to `UPLOADS_DIR`.
    pub storage_key: String,
}

/// The result of a logo change.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct CompanyLogoPayload {
    /// A short confirmation.
    pub message: Option<String>,
    /// The settings after the change (`hasLogo`, `logoFilename`).
    pub settings: Option<CompanySettings>,
    /// Rule violations (nothing was changed when present).
    pub user_errors: Vec<UserError>,
}

fn storage_key(filename: &str) -> String {
    format!("{LOGO_DIR}/{filename}")
}

/// Logo queries.
#[derive(Default)]
pub struct SettingsLogoQuery;

#[Object]
impl SettingsLogoQuery {
    /// The company logo (public); not found when none is stored.
    async fn company_logo(&self, ctx: &Context<'_>) -> AppResult<CompanyLogo> {
        let row = model::get(&mut *context::conn(ctx).await?).await?;
        let filename = row
            .logo_filename
            .ok_or_else(|| AppError::not_found("No logo uploaded"))?;
        let format = ImageFormat::of_stored_name(&filename)
            .ok_or_else(|| AppError::not_found("No logo uploaded"))?;
        Ok(CompanyLogo {
            storage_key: storage_key(&filename),
            content_type: format.content_type().to_owned(),
            filename,
        })
    }
}

/// Logo mutations.
#[derive(Default)]
pub struct SettingsLogoMutation;

/// Sets `logo_filename` with the row locked, audits the change and answers the row and the
/// name it replaced.
async fn set_logo(
    ctx: &Context<'_>,
    filename: Option<String>,
    event: &'static str,
) -> AppResult<(SettingsRow, Option<String>)> {
    let actor = current_user(ctx).await?;
    let meta = context::meta(ctx).cloned();
    let mut conn = context::conn(ctx).await?;
    conn.transaction::<_, AppError, _>(async move |conn| {
        let previous = model::get_for_update(conn).await?.logo_filename;
        let row = diesel::update(company_settings::table.find(SETTINGS_ID))
            .set((
                company_settings::logo_filename.eq(&filename),
                company_settings::updated_at.eq(diesel::dsl::now),
            ))
            .returning(SettingsRow::as_returning())
            .get_result(conn)
            .await?;
        crate::master_data::audit::record_in(
            conn,
            meta.as_ref(),
            &AuditEvent::new(event, Outcome::Success)
                .user(actor.id, &actor.email)
                .details(serde_json::json!({ "section": "company", "fields": ["logo"] })),
        )
        .await?;
        Ok((row, previous))
    })
    .await
}

async fn remove_stored(ctx: &Context<'_>, filename: &str) -> AppResult<()> {
    let path = context::config(ctx)?
        .uploads_dir
        .join(storage_key(filename));
    if let Err(e) = tokio::fs::remove_file(&path).await {
        // The row no longer points at it; a file already gone is not an error.
        tracing::warn!(error = %e, file = %filename, "old logo file not removed");
    }
    Ok(())
}

#[Object]
impl SettingsLogoMutation {
    /// Stores a new company logo (admins; PNG or JPEG, checked by content, at most
    /// `MAX_UPLOAD_BYTES`), replacing any previous one; audited.
    #[graphql(guard = "Access::Admin")]
    async fn company_logo_upload(
        &self,
        ctx: &Context<'_>,
        file: Upload,
    ) -> AppResult<CompanyLogoPayload> {
        let bytes = crate::platform::graphql::upload::read(ctx, file)?;
        let Some(format) = ImageFormat::sniff(&bytes) else {
            return Ok(CompanyLogoPayload {
                user_errors: vec![UserError::new(
                    "file",
                    UserErrorCode::Invalid,
                    "The logo must be a PNG or JPEG image",
                )],
                ..Default::default()
            });
        };
        let filename = format!(
            "logo-{}.{}",
            uuid::Uuid::new_v4().simple(),
            format.extension()
        );
        let dir = context::config(ctx)?.uploads_dir.join(LOGO_DIR);
        tokio::fs::create_dir_all(&dir)
            .await
            .map_err(AppError::internal)?;
        let path = dir.join(&filename);
        tokio::fs::write(&path, &bytes)
            .await
            .map_err(AppError::internal)?;
        let (row, previous) = match set_logo(ctx, Some(filename), "settings_logo_uploaded").await {
            Ok(done) => done,
            Err(e) => {
                // Without the row pointing at it the file must not stay behind.
                let _ = tokio::fs::remove_file(&path).await;
                return Err(e);
            }
        };
        if let Some(old) = previous {
            remove_stored(ctx, &old).await?;
        }
        Ok(CompanyLogoPayload {
            message: Some("Logo uploaded".into()),
            settings: Some(row.into()),
            user_errors: vec![],
        })
    }

    /// Removes the company logo (admins; nothing stored answers not found); audited.
    #[graphql(guard = "Access::Admin")]
    async fn company_logo_delete(&self, ctx: &Context<'_>) -> AppResult<CompanyLogoPayload> {
        let current = model::get(&mut *context::conn(ctx).await?).await?;
        if current.logo_filename.is_none() {
            return Err(AppError::not_found("No logo uploaded"));
        }
        let (row, previous) = set_logo(ctx, None, "settings_logo_deleted").await?;
        if let Some(old) = previous {
            remove_stored(ctx, &old).await?;
        }
        Ok(CompanyLogoPayload {
            message: Some("Logo deleted".into()),
            settings: Some(row.into()),
            user_errors: vec![],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::ImageFormat;

    #[test]
    fn only_png_and_jpeg_content_is_a_logo() {
        assert_eq!(
            ImageFormat::sniff(b"\x89PNG\r\n\x1a\nrest"),
            Some(ImageFormat::Png)
        );
        assert_eq!(
            ImageFormat::sniff(b"\xFF\xD8\xFF\xE0"),
            Some(ImageFormat::Jpeg)
        );
        assert_eq!(
            ImageFormat::sniff(b"<svg xmlns='http://www.w3.org/2000/svg'/>"),
            None
        );
        assert_eq!(ImageFormat::sniff(b""), None);
        assert_eq!(
            ImageFormat::of_stored_name("logo-ab.png"),
            Some(ImageFormat::Png)
        );
        assert_eq!(ImageFormat::of_stored_name("logo-ab.exe"), None);
    }
}
