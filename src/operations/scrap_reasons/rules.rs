//! Scrap reason rules: codes (stored lower case) and names are trimmed, 1 to N characters,
//! without control or text-direction characters; descriptions are trimmed, blank becomes
//! null; codes are unique ignoring case and set once. The resolvers only call these.

use diesel_async::AsyncPgConnection;

use crate::operations::scrap_reasons::model::{self, ScrapReasonForm, ScrapReasonRow};
use crate::platform::db::text;
use crate::platform::error::{AppError, AppResult, ErrorCode};
use crate::platform::graphql::user_error::{UserError, UserErrorCode};

/// Longest code.
pub const CODE_MAX: usize = 50;
/// Longest name.
pub const NAME_MAX: usize = 100;
/// Longest description.
pub const DESCRIPTION_MAX: usize = 2_000;

/// Checks and normalises a new (`creating`) or changed scrap reason: the code is trimmed and
/// lower case, the name trimmed, a blank description cleared.
pub fn check_fields(form: &mut ScrapReasonForm, creating: bool) -> Vec<UserError> {
    let mut errors = Vec::new();
    if let Some(code) = form.code.as_mut() {
        *code = code.to_lowercase();
    }
    text::required(&mut errors, "code", &mut form.code, creating, CODE_MAX);
    text::required(&mut errors, "name", &mut form.name, creating, NAME_MAX);
    text::clearable(
        &mut errors,
        "description",
        &mut form.description,
        DESCRIPTION_MAX,
    );
    errors
}

fn taken(code: &str) -> UserError {
    UserError::new(
        "code",
        UserErrorCode::Taken,
        format!("Scrap reason code '{code}' already exists"),
    )
}

/// Saves a new (`id` is `None`) or changed scrap reason after [`check_fields`]; a code
/// another reason has (any case) is refused. `Ok(Err(..))` carries the rule violations,
/// and then nothing was written.
pub async fn save(
    conn: &mut AsyncPgConnection,
    id: Option<i64>,
    mut form: ScrapReasonForm,
) -> AppResult<Result<ScrapReasonRow, Vec<UserError>>> {
    if let Some(id) = id {
        model::find(conn, id)
            .await?
            .ok_or_else(|| AppError::not_found("Scrap reason not found"))?;
        // Scrap records keep the code: it is set once.
        form.code = None;
    }
    let errors = check_fields(&mut form, id.is_none());
    if !errors.is_empty() {
        return Ok(Err(errors));
    }
    if let Some(code) = &form.code
        && model::find_by_code(conn, code).await?.is_some()
    {
        return Ok(Err(vec![taken(code)]));
    }
    let result = match id {
        Some(id) => model::update(conn, id, &form).await,
        None => model::insert(conn, &form).await,
    };
    match result {
        Ok(row) => Ok(Ok(row)),
        // A concurrent insert of the same code lost the race to the unique index.
        Err(e) if e.code == ErrorCode::Conflict => {
            Ok(Err(vec![taken(form.code.as_deref().unwrap_or_default())]))
        }
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_and_names_are_trimmed_and_refuse_hidden_characters() {
        let mut form = ScrapReasonForm {
            code: Some(" Layer_Shift ".into()),
            name: Some(" Layer shift ".into()),
            description: Some(Some("  ".into())),
            ..Default::default()
        };
        assert!(check_fields(&mut form, true).is_empty());
        assert_eq!(form.code.as_deref(), Some("layer_shift"));
        assert_eq!(form.name.as_deref(), Some("Layer shift"));
        assert_eq!(form.description, Some(None));
        let mut form = ScrapReasonForm {
            code: Some("shift\u{202E}".into()),
            name: Some("a\u{7}b".into()),
            ..Default::default()
        };
        let mut errors = check_fields(&mut form, true);
        let mut long = ScrapReasonForm {
            name: Some("n".repeat(NAME_MAX + 1)),
            ..Default::default()
        };
        errors.extend(check_fields(&mut long, false));
        let fields: Vec<_> = errors.iter().filter_map(|e| e.field.as_deref()).collect();
        assert_eq!(fields, ["code", "name", "name"]);
    }
}
