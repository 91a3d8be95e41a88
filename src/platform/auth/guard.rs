//! The role guards. Every GraphQL field that is not public carries one, and the REST
//! facade runs GraphQL, so these are the only place authorization is decided.

use async_graphql::{Context, Guard};

use crate::platform::auth::viewer::viewer;
use crate::platform::error::AppError;

/// Who may use a field or route.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Anyone, signed in or not (setup, login, password reset, health).
    Public,
    /// Any active admin or operator.
    User,
    /// Active admins only (spec 4.5).
    Admin,
}

impl Access {
    /// Whether `viewer` may call something with this access (401/403 when not).
    pub fn allows(self, viewer: &crate::platform::auth::Viewer) -> Result<(), AppError> {
        if self == Access::Public {
            return Ok(());
        }
        let user = viewer.require_user()?;
        if self == Access::Admin && !user.is_admin() {
            return Err(AppError::forbidden("Admin access required"));
        }
        Ok(())
    }
}

impl Guard for Access {
    async fn check(&self, ctx: &Context<'_>) -> async_graphql::Result<()> {
        if *self == Access::Public {
            return Ok(());
        }
        Ok(self.allows(&viewer(ctx).await?)?)
    }
}
