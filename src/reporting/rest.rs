//! REST routes of bulk exports: the download, served by the engine's file responses (the
//! resolver checks the owner or an admin).

use crate::rest::Route;

use crate::stored_op;

/// The routes.
pub const ROUTES: &[Route] = &[Route::get(
    "/bulk-exports/{id}/download",
    stored_op!("bulk_export_download.graphql"),
    "bulkExportFile",
)
.download()
.summary("A completed bulk export's file (JSONL or CSV): its owner or an admin; 404 once expired")];
