//! What may be written to a thread, and what writing does: a message from the customer is
//! unread until someone on the team reads it; a message to the customer is born read, is
//! e-mailed to the order's customer through the job queue when mail is configured, and a
//! reply marks the thread read (whoever replies has read it). Every message on an order joins
//! the order's history.

use async_graphql::InputObject;
use chrono::Utc;
use diesel_async::AsyncPgConnection;
use uuid::Uuid;

use crate::ledgers::inventory::rules::optional_text;
use crate::operations::sales::messages::model::{
    self, MessageRow, MessageSource, NewMessage, SenderType,
};
use crate::operations::sales::model::{SalesEventType, SalesOrderRow};
use crate::operations::sales::rules::{event, locked_for};
use crate::platform::db::text::required;
use crate::platform::graphql::user_error::{Stop, UserError, UserErrorCode, invalid};

/// The longest message (FilaOps's limit).
pub const BODY_MAX: usize = 5000;
/// The longest subject.
pub const SUBJECT_MAX: usize = 200;
/// The longest sender name.
pub const SENDER_MAX: usize = 200;
/// How much of a message the order's history shows.
const PREVIEW_MAX: usize = 200;

/// A new thread.
#[derive(Debug, Clone, InputObject)]
pub struct MessageThreadInput {
    /// The sales order it is about (none: a general message).
    pub sales_order_id: Option<i64>,
    /// The subject (1-200 characters).
    pub subject: String,
    /// The first message (1-5000 characters).
    pub body: String,
    /// Who it is from: `admin` (you, to the customer; the default) or `customer` (their
    /// e-mail or call, recorded here).
    #[graphql(default_with = "SenderType::Admin")]
    pub sender_type: SenderType,
    /// How it arrived (default `admin` for yours, `email` for the customer's).
    pub source: Option<MessageSource>,
    /// The sender's name (default: yours, or the order's customer).
    pub sender_name: Option<String>,
    /// E-mail your message to the order's customer when mail is configured (default true).
    #[graphql(default = true)]
    pub email_customer: bool,
}

/// A message added to a thread.
#[derive(Debug, Clone, InputObject)]
pub struct MessageReplyInput {
    /// The text (1-5000 characters).
    pub body: String,
    /// Who it is from (default `admin`: you).
    #[graphql(default_with = "SenderType::Admin")]
    pub sender_type: SenderType,
    /// How it arrived (default `admin` for yours, `email` for the customer's).
    pub source: Option<MessageSource>,
    /// The sender's name (default: yours, or the order's customer).
    pub sender_name: Option<String>,
    /// E-mail your reply to the order's customer when mail is configured (default true).
    #[graphql(default = true)]
    pub email_customer: bool,
}

/// Who is writing, and what the request may do.
#[derive(Debug, Clone)]
pub struct Author {
    /// The user.
    pub user_id: i64,
    /// Their name as messages show it.
    pub name: String,
    /// Admins may write on any order; others on their own.
    pub admin: bool,
    /// Mail is configured (messages to the customer are e-mailed).
    pub mail: bool,
}

/// What was written, and whether it was e-mailed.
#[derive(Debug, Clone)]
pub struct Written {
    /// The message.
    pub message: MessageRow,
    /// It was queued for e-mail to the customer.
    pub emailed: bool,
}

/// "Thread not found" (FilaOps's words): also for ids that are not UUIDs.
pub fn thread_not_found() -> Stop {
    Stop::refuse("threadId", UserErrorCode::NotFound, "Thread not found")
}

/// A thread id from a path or argument.
pub fn thread_id(text: &str) -> Result<Uuid, Stop> {
    Uuid::parse_str(text.trim()).map_err(|_| thread_not_found())
}

/// Starts a thread with its first message.
pub async fn start(
    conn: &mut AsyncPgConnection,
    input: MessageThreadInput,
    author: &Author,
) -> Result<Written, Stop> {
    let mut errors = Vec::new();
    let mut subject = Some(input.subject);
    required(&mut errors, "subject", &mut subject, true, SUBJECT_MAX);
    let draft = Draft::checked(
        &mut errors,
        input.body,
        input.sender_type,
        input.source,
        input.sender_name,
        input.email_customer,
    );
    let Some(draft) = draft.filter(|_| errors.is_empty()) else {
        return Err(Stop::Refused(errors));
    };
    let order = match input.sales_order_id {
        Some(id) => Some(locked_for(conn, id, author.user_id, author.admin).await?),
        None => None,
    };
    write(conn, Uuid::new_v4(), subject, order.as_ref(), draft, author).await
}

/// Adds a message to a thread (404 `Thread not found`); a reply from the team marks the
/// thread read.
pub async fn reply(
    conn: &mut AsyncPgConnection,
    thread: &str,
    input: MessageReplyInput,
    author: &Author,
) -> Result<Written, Stop> {
    let thread = thread_id(thread)?;
    let mut errors = Vec::new();
    let draft = Draft::checked(
        &mut errors,
        input.body,
        input.sender_type,
        input.source,
        input.sender_name,
        input.email_customer,
    );
    let Some(draft) = draft.filter(|_| errors.is_empty()) else {
        return Err(Stop::Refused(errors));
    };
    let messages = model::thread(conn, thread).await?;
    let first = messages.first().ok_or_else(thread_not_found)?;
    let order = match first.sales_order_id {
        Some(id) => Some(locked_for(conn, id, author.user_id, author.admin).await?),
        None => None,
    };
    if draft.sender_type == SenderType::Admin {
        model::mark_thread_read(conn, thread).await?;
    }
    write(
        conn,
        thread,
        first.thread_subject.clone(),
        order.as_ref(),
        draft,
        author,
    )
    .await
}

/// A message's checked fields.
struct Draft {
    body: String,
    sender_type: SenderType,
    source: MessageSource,
    sender_name: Option<String>,
    email_customer: bool,
}

impl Draft {
    /// Checks the text and the sender (errors pushed; `None` when one was).
    fn checked(
        errors: &mut Vec<UserError>,
        body: String,
        sender_type: SenderType,
        source: Option<MessageSource>,
        sender_name: Option<String>,
        email_customer: bool,
    ) -> Option<Draft> {
        let before = errors.len();
        let body = body.trim().to_string();
        if body.is_empty() {
            errors.push(invalid("body", "String should have at least 1 character"));
        } else if body.chars().count() > BODY_MAX {
            errors.push(invalid(
                "body",
                format!("String should have at most {BODY_MAX} characters"),
            ));
        } else if body.contains('\0') {
            errors.push(invalid("body", "Must not contain NUL characters"));
        }
        if sender_type == SenderType::System {
            errors.push(invalid(
                "senderType",
                "Only Strata writes system messages: use admin or customer",
            ));
        }
        if source == Some(MessageSource::System) {
            errors.push(invalid(
                "source",
                "Only Strata writes system messages: use admin, email, phone or portal",
            ));
        }
        let mut sender_name = sender_name;
        optional_text(errors, "senderName", &mut sender_name, SENDER_MAX);
        if errors.len() > before {
            return None;
        }
        let source = source.unwrap_or(match sender_type {
            SenderType::Customer => MessageSource::Email,
            _ => MessageSource::Admin,
        });
        Some(Draft {
            body,
            sender_type,
            source,
            sender_name,
            email_customer,
        })
    }
}

/// Stores the message, queues its e-mail, and notes it on the order's history.
async fn write(
    conn: &mut AsyncPgConnection,
    thread: Uuid,
    subject: Option<String>,
    order: Option<&SalesOrderRow>,
    draft: Draft,
    author: &Author,
) -> Result<Written, Stop> {
    let from_us = draft.sender_type == SenderType::Admin;
    let sender_name = draft.sender_name.or_else(|| {
        if from_us {
            Some(author.name.clone())
        } else {
            order.and_then(|o| o.customer_name.clone())
        }
    });
    let email_to = order
        .and_then(|o| o.customer_email.clone())
        .map(|e| e.trim().to_string())
        .filter(|e| !e.is_empty())
        .filter(|_| from_us && draft.email_customer && author.mail);
    let message = model::insert(
        conn,
        &NewMessage {
            thread_id: thread,
            thread_subject: subject.clone(),
            sales_order_id: order.map(|o| o.id),
            sender_type: draft.sender_type,
            sender_name: sender_name.clone(),
            body: draft.body.clone(),
            source: draft.source,
            created_by: Some(author.user_id),
            emailed_to: email_to.clone(),
            read_at: from_us.then(Utc::now),
        },
    )
    .await?;
    if let Some(order) = order {
        let subject = subject.as_deref().unwrap_or("Message");
        let title = if from_us {
            format!("Message to customer: {subject}")
        } else {
            format!("Message from customer: {subject}")
        };
        event(
            conn,
            order.id,
            SalesEventType::Message,
            truncate(&title, 255),
            Some(truncate(&draft.body, PREVIEW_MAX)),
            None,
            Some(author.user_id),
        )
        .await?;
    }
    let emailed = match (email_to, order) {
        (Some(to), Some(order)) => {
            queue_mail(
                conn,
                to,
                subject.as_deref(),
                order,
                &draft.body,
                &sender_name,
            )
            .await?;
            true
        }
        _ => false,
    };
    Ok(Written { message, emailed })
}

/// Queues the e-mail of a message to the customer (sent by the job queue after commit).
async fn queue_mail(
    conn: &mut AsyncPgConnection,
    to: String,
    subject: Option<&str>,
    order: &SalesOrderRow,
    body: &str,
    sender: &Option<String>,
) -> Result<(), Stop> {
    let settings = crate::master_data::settings::model::get(conn).await?;
    let company = settings.company_name.unwrap_or_else(|| "Strata".into());
    let subject = subject.unwrap_or("Your order");
    crate::platform::jobs::enqueue(
        conn,
        &crate::platform::mail::SendMail(crate::platform::mail::OutgoingMail {
            to,
            subject: format!("{subject} (order {})", order.order_number),
            body: format!(
                "{body}\n\n{sender}\n{company}\n",
                sender = sender.as_deref().unwrap_or_default(),
            ),
            attachments: Vec::new(),
        }),
    )
    .await?;
    Ok(())
}

/// At most `max` characters, with an ellipsis when cut.
fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        let mut cut: String = text.chars().take(max.saturating_sub(1)).collect();
        cut.push('…');
        cut
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_ids_that_are_not_uuids_are_not_found() {
        assert!(thread_id("not-a-uuid").is_err());
        assert!(thread_id(&Uuid::new_v4().to_string()).is_ok());
    }

    #[test]
    fn long_text_is_cut_with_an_ellipsis() {
        assert_eq!(truncate("abcdef", 4), "abc…");
        assert_eq!(truncate("abc", 4), "abc");
    }

    #[test]
    fn blank_and_system_messages_are_refused_with_their_fields() {
        let mut errors = Vec::new();
        let draft = Draft::checked(
            &mut errors,
            "  ".into(),
            SenderType::System,
            None,
            None,
            true,
        );
        assert!(draft.is_none());
        let fields: Vec<_> = errors.iter().filter_map(|e| e.field.as_deref()).collect();
        assert_eq!(fields, ["body", "senderType"]);
    }
}
