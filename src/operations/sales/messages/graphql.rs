//! Customer messages in the schema: the team's inbox of threads (FilaOps's notifications),
//! a thread's messages, the unread badge, and writing, replying and marking read. Any
//! signed-in user reads the inbox; writing on an order needs the access notes need (its
//! owner or an admin).

use async_graphql::{Context, Object, SimpleObject};

use crate::master_data::identity::loaders::display_name;
use crate::operations::sales::messages::model::{
    self, MessageRow, MessageSource, SenderType, ThreadFilter, ThreadSummaryRow,
};
use crate::operations::sales::messages::rules::{
    self, Author, MessageReplyInput, MessageThreadInput, Written,
};
use crate::platform::auth::Access;
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::context;
use crate::platform::graphql::pagination::Page;
use crate::platform::graphql::scalars::Timestamp;
use crate::platform::graphql::user_error::{Stop, UserError};

/// How much of the latest message a thread's summary shows.
const PREVIEW_CHARS: usize = 100;
/// The largest page of threads.
pub const MAX_THREAD_PAGE: i64 = 200;

/// One message of a thread.
#[derive(Debug, Clone, SimpleObject)]
#[graphql(name = "OrderMessage")]
pub struct OrderMessage {
    /// Id.
    pub id: i64,
    /// The thread (a UUID).
    pub thread_id: String,
    /// The thread's subject.
    pub thread_subject: Option<String>,
    /// The sales order the thread is about.
    pub sales_order_id: Option<i64>,
    /// Who it is from: `customer`, `admin` (the team) or `system`.
    pub sender_type: SenderType,
    /// The sender's name.
    pub sender_name: Option<String>,
    /// The text.
    pub body: String,
    /// When someone on the team read it (the team's own messages are born read).
    pub read_at: Option<Timestamp>,
    /// How it arrived.
    pub source: MessageSource,
    /// The address it was e-mailed to, when it was.
    pub emailed_to: Option<String>,
    /// Written.
    pub created_at: Timestamp,
}

impl From<MessageRow> for OrderMessage {
    fn from(m: MessageRow) -> Self {
        OrderMessage {
            id: m.id,
            thread_id: m.thread_id.to_string(),
            thread_subject: m.thread_subject,
            sales_order_id: m.sales_order_id,
            sender_type: m.sender_type,
            sender_name: m.sender_name,
            body: m.body,
            read_at: m.read_at.map(Timestamp),
            source: m.source,
            emailed_to: m.emailed_to,
            created_at: Timestamp(m.created_at),
        }
    }
}

/// A thread as the inbox lists it.
#[derive(Debug, Clone, SimpleObject)]
pub struct MessageThread {
    /// The thread (a UUID).
    pub thread_id: String,
    /// Its subject.
    pub thread_subject: Option<String>,
    /// The sales order it is about.
    pub sales_order_id: Option<i64>,
    /// That order's number.
    pub order_number: Option<String>,
    /// That order's customer.
    pub customer_name: Option<String>,
    /// Messages in it.
    pub message_count: i64,
    /// Messages nobody on the team has read.
    pub unread_count: i64,
    /// When the latest message was written.
    pub last_message_at: Timestamp,
    /// The start of the latest message (100 characters).
    pub last_message_preview: String,
    /// Who wrote the latest message.
    pub last_sender_name: Option<String>,
    /// Whether the latest message is the customer's (awaiting an answer).
    pub awaiting_reply: bool,
}

impl From<ThreadSummaryRow> for MessageThread {
    fn from(t: ThreadSummaryRow) -> Self {
        MessageThread {
            thread_id: t.thread_id.to_string(),
            thread_subject: t.thread_subject,
            sales_order_id: t.sales_order_id,
            order_number: t.order_number,
            customer_name: t.customer_name,
            message_count: t.message_count,
            unread_count: t.unread_count,
            last_message_at: Timestamp(t.last_message_at),
            last_message_preview: t.last_body.chars().take(PREVIEW_CHARS).collect(),
            last_sender_name: t.last_sender_name,
            awaiting_reply: t.last_sender_type == SenderType::Customer.as_ref(),
        }
    }
}

crate::connection!(
    /// A page of message threads.
    MessageThreadConnection,
    MessageThread
);

/// Customer message queries (any signed-in user).
#[derive(Default)]
pub struct MessagesQuery;

#[Object]
impl MessagesQuery {
    /// The inbox: message threads, latest activity first.
    #[graphql(guard = "Access::User")]
    async fn message_threads(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Only threads with unread messages.", default = false)] unread_only: bool,
        #[graphql(desc = "Only the threads about this sales order.")] sales_order_id: Option<i64>,
        #[graphql(desc = "Subject, message text, order number or customer name contains this.")]
        search: Option<String>,
        #[graphql(desc = "Page size (1-200).", default = 50, directive = crate::platform::graphql::limits::range::apply(1, MAX_THREAD_PAGE))]
        first: i64,
        #[graphql(desc = "Threads to skip.", default = 0, directive = crate::platform::graphql::limits::range::apply(0, i64::from(i32::MAX)))]
        offset: i64,
    ) -> AppResult<MessageThreadConnection> {
        let page = Page::with_max(Some(first), Some(offset), MAX_THREAD_PAGE)?;
        let filter = ThreadFilter {
            unread_only,
            sales_order_id,
            search,
        };
        let rows = model::threads(
            &mut *context::conn(ctx).await?,
            &filter,
            page.offset,
            page.limit,
        )
        .await?;
        let total = match rows.first() {
            Some(row) => row.total,
            // Past the last page the window count is lost: count again.
            None if page.offset > 0 => {
                model::threads(&mut *context::conn(ctx).await?, &filter, 0, 1)
                    .await?
                    .first()
                    .map_or(0, |r| r.total)
            }
            None => 0,
        };
        Ok(MessageThreadConnection {
            total_count: total,
            nodes: rows
                .into_iter()
                .map(MessageThread::from)
                .collect::<Vec<_>>()
                .into(),
            page_info: page.info(total),
        })
    }

    /// A thread's messages, oldest first (404 `Thread not found`).
    #[graphql(guard = "Access::User")]
    async fn message_thread(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The thread (a UUID).")] thread_id: String,
    ) -> AppResult<Vec<OrderMessage>> {
        let id = Stop::into_app(rules::thread_id(&thread_id))?;
        let rows = model::thread(&mut *context::conn(ctx).await?, id).await?;
        if rows.is_empty() {
            return Err(AppError::not_found("Thread not found"));
        }
        Ok(rows.into_iter().map(OrderMessage::from).collect())
    }

    /// Messages nobody on the team has read (the inbox badge).
    #[graphql(guard = "Access::User")]
    async fn unread_message_count(&self, ctx: &Context<'_>) -> AppResult<i64> {
        model::unread_count(&mut *context::conn(ctx).await?).await
    }
}

/// The result of writing a message.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct OrderMessagePayload {
    /// The message written.
    pub message: Option<OrderMessage>,
    /// It was queued for e-mail to the order's customer.
    pub emailed: bool,
    /// Rule violations (nothing was written when present).
    pub user_errors: Vec<UserError>,
}

impl From<Result<Written, Vec<UserError>>> for OrderMessagePayload {
    fn from(written: Result<Written, Vec<UserError>>) -> Self {
        match written {
            Ok(w) => OrderMessagePayload {
                message: Some(w.message.into()),
                emailed: w.emailed,
                user_errors: Vec::new(),
            },
            Err(user_errors) => OrderMessagePayload {
                user_errors,
                ..OrderMessagePayload::default()
            },
        }
    }
}

/// How many messages were marked read.
#[derive(Debug, Clone, SimpleObject)]
pub struct MarkedRead {
    /// Messages that were unread.
    pub marked_read: i64,
}

/// Customer message mutations (any signed-in user; on an order, its owner or an admin).
#[derive(Default)]
pub struct MessagesMutation;

#[Object]
impl MessagesMutation {
    /// Starts a thread: a message to the order's customer (e-mailed when mail is configured)
    /// or one of theirs recorded here (unread for the team).
    #[graphql(guard = "Access::User")]
    async fn message_thread_start(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The subject, order and first message.")] input: MessageThreadInput,
    ) -> AppResult<OrderMessagePayload> {
        let author = author(ctx).await?;
        Ok(crate::in_transaction!(ctx, |conn| rules::start(conn, input, &author)).into())
    }

    /// Adds a message to a thread (404 `Thread not found`); a reply from the team marks the
    /// thread read and is e-mailed to the order's customer when mail is configured.
    #[graphql(guard = "Access::User")]
    async fn message_reply(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The thread (a UUID).")] thread_id: String,
        #[graphql(desc = "The message.")] input: MessageReplyInput,
    ) -> AppResult<OrderMessagePayload> {
        let author = author(ctx).await?;
        Ok(
            crate::in_transaction!(ctx, |conn| rules::reply(conn, &thread_id, input, &author))
                .into(),
        )
    }

    /// Marks every message of a thread read (404 `Thread not found`).
    #[graphql(guard = "Access::User")]
    async fn message_thread_mark_read(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The thread (a UUID).")] thread_id: String,
    ) -> AppResult<MarkedRead> {
        let id = Stop::into_app(rules::thread_id(&thread_id))?;
        let mut conn = context::conn(ctx).await?;
        if model::thread(&mut conn, id).await?.is_empty() {
            return Err(AppError::not_found("Thread not found"));
        }
        let marked = model::mark_thread_read(&mut conn, id).await?;
        Ok(MarkedRead {
            marked_read: i64::try_from(marked).unwrap_or(i64::MAX),
        })
    }

    /// Marks one message read (404 `Notification not found`).
    #[graphql(guard = "Access::User")]
    async fn message_mark_read(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The message.")] id: i64,
    ) -> AppResult<OrderMessage> {
        let row = model::mark_read(&mut *context::conn(ctx).await?, id).await?;
        row.map(OrderMessage::from)
            .ok_or_else(|| AppError::not_found("Notification not found"))
    }
}

/// The signed-in user as a message's author.
async fn author(ctx: &Context<'_>) -> AppResult<Author> {
    let user = crate::platform::auth::viewer::current_user(ctx).await?;
    let mail = context::mailer(ctx)?.is_configured();
    let row =
        crate::master_data::identity::model::find(&mut *context::conn(ctx).await?, user.id).await?;
    let name = row.map_or_else(
        || user.email.clone(),
        |r| display_name(r.first_name.as_deref(), r.last_name.as_deref(), &r.email),
    );
    Ok(Author {
        user_id: user.id,
        name,
        admin: user.is_admin(),
        mail,
    })
}
