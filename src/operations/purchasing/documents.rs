//! Documents attached to purchase orders (invoices, packing slips...), stored under
//! `UPLOADS_DIR/purchase-orders/<po>/` with generated names; the uploaded name is data only.
//! Content is checked against the extension (the item files' rule) before anything is
//! written, and the engine streams a download from the stored key.

use std::str::FromStr;

use async_graphql::{Context, SimpleObject, Upload};
use diesel::prelude::*;
use diesel_async::RunQueryDsl;

use crate::master_data::catalog::files::sniff;
use crate::operations::purchasing::model::{
    self, PurchaseDocumentRow, PurchaseDocumentType, PurchaseEventType,
};
use crate::platform::db::schema::purchase_order_documents;
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::context;
use crate::platform::graphql::upload::read as read_upload;
use crate::platform::graphql::user_error::{UserError, UserErrorCode};

/// The result of a document upload or removal.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct PurchaseDocumentPayload {
    /// The document.
    pub document: Option<PurchaseDocumentRow>,
    /// What happened.
    pub message: Option<String>,
    /// Why it was refused (nothing stored when present).
    pub user_errors: Vec<UserError>,
}

fn refused(field: &str, message: String) -> PurchaseDocumentPayload {
    PurchaseDocumentPayload {
        user_errors: vec![UserError::new(field, UserErrorCode::Invalid, message)],
        ..Default::default()
    }
}

/// Stores an upload for a purchase order and records a `document` event.
pub async fn upload(
    ctx: &Context<'_>,
    po_id: i64,
    file: Upload,
    document_type: Option<String>,
    notes: Option<String>,
) -> AppResult<PurchaseDocumentPayload> {
    let filename = file
        .value(ctx)
        .map(|v| v.filename.clone())
        .unwrap_or_default();
    let bytes = read_upload(ctx, file)?;
    let kind = match document_type
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty())
    {
        None => PurchaseDocumentType::Other,
        Some(t) => match PurchaseDocumentType::from_str(t) {
            Ok(k) => k,
            Err(_) => {
                return Ok(refused(
                    "documentType",
                    format!(
                        "Unknown document type '{t}' (invoice, packing_slip, receipt, quote, shipping_label, other)"
                    ),
                ));
            }
        },
    };
    let notes = notes
        .map(|n| n.trim().chars().take(2000).collect::<String>())
        .filter(|n| !n.is_empty());
    let mut conn = context::conn(ctx).await?;
    let po = model::find(&mut conn, po_id).await?;
    let content_type = match sniff(&filename, &bytes) {
        Ok(t) => t,
        Err(m) => return Ok(refused("file", m)),
    };
    let ext = filename
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    let stored_name = format!(
        "purchase-orders/{po_id}/{}.{ext}",
        uuid::Uuid::new_v4().simple()
    );
    let uploads = &context::config(ctx)?.uploads_dir;
    let path = uploads.join(&stored_name);
    tokio::fs::create_dir_all(uploads.join(format!("purchase-orders/{po_id}")))
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
    let user = crate::platform::auth::viewer::current_user(ctx)
        .await
        .ok()
        .map(|u| u.id);
    let inserted = {
        use diesel_async::AsyncConnection;
        let original = original.clone();
        conn.transaction::<_, diesel::result::Error, _>(async move |conn| {
            let row = diesel::insert_into(purchase_order_documents::table)
                .values((
                    purchase_order_documents::purchase_order_id.eq(po_id),
                    purchase_order_documents::document_type.eq(kind),
                    purchase_order_documents::original_name.eq(&original),
                    purchase_order_documents::stored_name.eq(&stored_name),
                    purchase_order_documents::content_type.eq(content_type),
                    purchase_order_documents::size_bytes.eq(bytes.len() as i64),
                    purchase_order_documents::notes.eq(&notes),
                    purchase_order_documents::uploaded_by.eq(user),
                ))
                .returning(PurchaseDocumentRow::as_returning())
                .get_result(conn)
                .await?;
            diesel::insert_into(crate::platform::db::schema::purchase_order_events::table)
                .values(model::NewEvent {
                    purchase_order_id: po_id,
                    event_type: PurchaseEventType::Document,
                    title: "Document Attached".into(),
                    description: Some(format!("{original} ({kind})")),
                    old_status: None,
                    new_status: None,
                    created_by: user,
                    metadata_key: None,
                    metadata_value: None,
                })
                .execute(conn)
                .await?;
            Ok(row)
        })
        .await
    };
    match inserted {
        Ok(row) => Ok(PurchaseDocumentPayload {
            message: Some(format!("Uploaded {original} to {}", po.po_number)),
            document: Some(row),
            user_errors: Vec::new(),
        }),
        Err(e) => {
            // The row is the record of the file: without it the file must not stay behind.
            let _ = tokio::fs::remove_file(&path).await;
            Err(e.into())
        }
    }
}

/// One document of an order, or a 404.
pub async fn find(ctx: &Context<'_>, po_id: i64, doc_id: i64) -> AppResult<PurchaseDocumentRow> {
    let mut conn = context::conn(ctx).await?;
    model::documents_of(&mut conn, &[po_id])
        .await?
        .into_iter()
        .find(|d| d.id == doc_id)
        .ok_or_else(|| AppError::not_found("Document not found"))
}

/// Removes a document (row and stored file).
pub async fn delete(
    ctx: &Context<'_>,
    po_id: i64,
    doc_id: i64,
) -> AppResult<PurchaseDocumentPayload> {
    let row = find(ctx, po_id, doc_id).await?;
    let mut conn = context::conn(ctx).await?;
    diesel::delete(purchase_order_documents::table.find(doc_id))
        .execute(&mut conn)
        .await?;
    let path = context::config(ctx)?.uploads_dir.join(&row.stored_name);
    if let Err(e) = tokio::fs::remove_file(&path).await {
        tracing::warn!(error = %e, file = %row.stored_name, "stored document already missing");
    }
    Ok(PurchaseDocumentPayload {
        message: Some(format!("Deleted {}", row.original_name)),
        document: Some(row),
        user_errors: Vec::new(),
    })
}
