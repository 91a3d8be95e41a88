//! Files attached to items (3MF, STL and similar), stored under `UPLOADS_DIR/items/<item>/`
//! with generated names: the uploaded name is kept only as data, so no upload can choose
//! where it lands. Content is checked against the extension before anything is written.

use async_graphql::{Context, Upload};
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use sha2::{Digest, Sha256};

use crate::master_data::catalog::graphql::{ItemFile, ItemFilePayload};
use crate::master_data::catalog::model::{self, ItemFileRow};
use crate::platform::db::schema::item_files;
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::context;
use crate::platform::graphql::user_error::{UserError, UserErrorCode};

/// The content type of an accepted file, or why it is refused.
pub fn sniff(filename: &str, bytes: &[u8]) -> Result<&'static str, String> {
    let ext = filename
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    let text = || std::str::from_utf8(&bytes[..bytes.len().min(4096)]).is_ok();
    let (ok, content_type) = match ext.as_str() {
        "3mf" => (bytes.starts_with(b"PK\x03\x04"), "model/3mf"),
        "stl" => {
            let ascii = bytes.starts_with(b"solid");
            let binary = bytes.len() >= 84 && {
                let n = u32::from_le_bytes([bytes[80], bytes[81], bytes[82], bytes[83]]) as usize;
                n.checked_mul(50).and_then(|x| x.checked_add(84)) == Some(bytes.len())
            };
            (ascii || binary, "model/stl")
        }
        "obj" => (text(), "model/obj"),
        "step" | "stp" => (bytes.starts_with(b"ISO-10303-21"), "model/step"),
        "gcode" | "gco" => (text(), "text/x-gcode"),
        "png" => (bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "image/png"),
        "jpg" | "jpeg" => (bytes.starts_with(b"\xFF\xD8\xFF"), "image/jpeg"),
        "pdf" => (bytes.starts_with(b"%PDF-"), "application/pdf"),
        _ => {
            return Err(format!(
                "Files of type '.{ext}' are not accepted (3mf, stl, obj, step, gcode, png, jpg, pdf)"
            ));
        }
    };
    if bytes.is_empty() {
        return Err("The file is empty".into());
    }
    if ok {
        Ok(content_type)
    } else {
        Err(format!(
            "The content of the file is not a valid .{ext} file"
        ))
    }
}

fn payload_error(message: String) -> ItemFilePayload {
    ItemFilePayload {
        user_errors: vec![UserError::new("file", UserErrorCode::Invalid, message)],
        ..Default::default()
    }
}

/// Stores an upload for an item.
pub async fn upload(ctx: &Context<'_>, item_id: i64, file: Upload) -> AppResult<ItemFilePayload> {
    let filename = file
        .value(ctx)
        .map(|v| v.filename.clone())
        .unwrap_or_default();
    let bytes = crate::platform::graphql::upload::read(ctx, file)?;
    let mut conn = context::conn(ctx).await?;
    if model::find(&mut conn, item_id).await?.is_none() {
        return Err(AppError::not_found("Item not found"));
    }
    let content_type = match sniff(&filename, &bytes) {
        Ok(t) => t,
        Err(m) => return Ok(payload_error(m)),
    };
    let ext = filename
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    let stored_name = format!("items/{item_id}/{}.{ext}", uuid::Uuid::new_v4().simple());
    let dir = context::config(ctx)?
        .uploads_dir
        .join(format!("items/{item_id}"));
    let path = context::config(ctx)?.uploads_dir.join(&stored_name);
    tokio::fs::create_dir_all(&dir)
        .await
        .map_err(AppError::internal)?;
    tokio::fs::write(&path, &bytes)
        .await
        .map_err(AppError::internal)?;
    let original: String = filename
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or_default()
        .chars()
        .filter(|c| !c.is_control())
        .take(255)
        .collect();
    let viewer = crate::platform::auth::viewer::current_user(ctx)
        .await
        .ok()
        .map(|u| u.id);
    let inserted = diesel::insert_into(item_files::table)
        .values((
            item_files::item_id.eq(item_id),
            item_files::original_name.eq(&original),
            item_files::stored_name.eq(&stored_name),
            item_files::content_type.eq(content_type),
            item_files::size_bytes.eq(bytes.len() as i64),
            item_files::sha256.eq(hex::encode(Sha256::digest(&bytes))),
            item_files::uploaded_by.eq(viewer),
        ))
        .returning(ItemFileRow::as_returning())
        .get_result(&mut conn)
        .await;
    match inserted {
        Ok(row) => Ok(ItemFilePayload {
            message: Some(format!("Uploaded {original}")),
            file: Some(ItemFile::from(row)),
            user_errors: vec![],
        }),
        Err(e) => {
            // The row is the record of the file: without it the file must not stay behind.
            let _ = tokio::fs::remove_file(&path).await;
            Err(e.into())
        }
    }
}

/// Removes a file of an item (row and stored file).
pub async fn delete(ctx: &Context<'_>, item_id: i64, file_id: i64) -> AppResult<ItemFilePayload> {
    let mut conn = context::conn(ctx).await?;
    let row: ItemFileRow = item_files::table
        .filter(item_files::id.eq(file_id))
        .filter(item_files::item_id.eq(item_id))
        .select(ItemFileRow::as_select())
        .first(&mut conn)
        .await
        .optional()?
        .ok_or_else(|| AppError::not_found("File not found"))?;
    diesel::delete(item_files::table.find(file_id))
        .execute(&mut conn)
        .await?;
    let path = context::config(ctx)?.uploads_dir.join(&row.stored_name);
    if let Err(e) = tokio::fs::remove_file(&path).await {
        tracing::warn!(error = %e, file = %row.stored_name, "stored file already missing");
    }
    Ok(ItemFilePayload {
        message: Some(format!("Deleted {}", row.original_name)),
        file: Some(ItemFile::from(row)),
        user_errors: vec![],
    })
}

#[cfg(test)]
mod tests {
    use super::sniff;

    #[test]
    fn content_must_match_the_extension() {
        assert_eq!(sniff("part.3MF", b"PK\x03\x04rest"), Ok("model/3mf"));
        assert_eq!(sniff("part.stl", b"solid cube\nendsolid"), Ok("model/stl"));
        let mut binary = vec![0u8; 80];
        binary.extend_from_slice(&1u32.to_le_bytes());
        binary.extend_from_slice(&[0u8; 50]);
        assert_eq!(sniff("part.stl", &binary), Ok("model/stl"));
        assert!(sniff("part.stl", b"not an stl").is_err());
        assert!(sniff("part.3mf", b"%PDF-1.7").is_err());
        assert!(sniff("evil.exe", b"MZ").is_err());
        assert!(sniff("../../etc/passwd", b"root").is_err());
    }
}
