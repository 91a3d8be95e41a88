//! Message rows, their closed sets and the queries on them. A thread is the messages that
//! share a `thread_id`; its subject and order are those of its first message.

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Bool, Nullable, Text, Timestamptz, Uuid as SqlUuid};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use uuid::Uuid;

use crate::platform::db::schema::order_messages;
use crate::platform::error::AppResult;

crate::text_enum! {
    /// Who a message is from.
    pub enum SenderType {
        /// The customer (their e-mail, call or note, recorded here).
        Customer,
        /// Someone on the team, writing to the customer (FilaOps's word for it).
        Admin,
        /// Strata itself.
        System,
    }
}

crate::text_enum! {
    /// How a message reached Strata.
    pub enum MessageSource {
        /// Written by Strata.
        System,
        /// Written in the app by someone on the team (FilaOps's word for it).
        Admin,
        /// An e-mail, copied in.
        Email,
        /// A telephone call, noted.
        Phone,
        /// A customer portal or store.
        Portal,
    }
}

/// A stored message.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = order_messages, check_for_backend(diesel::pg::Pg))]
pub struct MessageRow {
    /// Id.
    pub id: i64,
    /// The thread it belongs to.
    pub thread_id: Uuid,
    /// The thread's subject (copied from its first message).
    pub thread_subject: Option<String>,
    /// The sales order the thread is about.
    pub sales_order_id: Option<i64>,
    /// Who it is from.
    pub sender_type: SenderType,
    /// The sender's name.
    pub sender_name: Option<String>,
    /// The text.
    pub body: String,
    /// How it arrived.
    pub source: MessageSource,
    /// Who wrote or recorded it here.
    pub created_by: Option<i64>,
    /// The address it was e-mailed to (staff messages, with mail configured).
    pub emailed_to: Option<String>,
    /// When someone on the team read it (staff messages are born read).
    pub read_at: Option<DateTime<Utc>>,
    /// Written.
    pub created_at: DateTime<Utc>,
}

/// A message to store.
#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = order_messages)]
pub struct NewMessage {
    /// The thread.
    pub thread_id: Uuid,
    /// The thread's subject.
    pub thread_subject: Option<String>,
    /// The order.
    pub sales_order_id: Option<i64>,
    /// Who it is from.
    pub sender_type: SenderType,
    /// The sender's name.
    pub sender_name: Option<String>,
    /// The text.
    pub body: String,
    /// How it arrived.
    pub source: MessageSource,
    /// Who wrote or recorded it.
    pub created_by: Option<i64>,
    /// The address it is e-mailed to.
    pub emailed_to: Option<String>,
    /// Read already (staff messages).
    pub read_at: Option<DateTime<Utc>>,
}

/// One thread of the inbox.
#[derive(Debug, Clone, QueryableByName)]
pub struct ThreadSummaryRow {
    /// The thread.
    #[diesel(sql_type = SqlUuid)]
    pub thread_id: Uuid,
    /// Its subject (its first message's).
    #[diesel(sql_type = Nullable<Text>)]
    pub thread_subject: Option<String>,
    /// The order it is about (its first message's).
    #[diesel(sql_type = Nullable<BigInt>)]
    pub sales_order_id: Option<i64>,
    /// The order's number.
    #[diesel(sql_type = Nullable<Text>)]
    pub order_number: Option<String>,
    /// The order's customer.
    #[diesel(sql_type = Nullable<Text>)]
    pub customer_name: Option<String>,
    /// Messages in it.
    #[diesel(sql_type = BigInt)]
    pub message_count: i64,
    /// Unread messages in it.
    #[diesel(sql_type = BigInt)]
    pub unread_count: i64,
    /// When its latest message was written.
    #[diesel(sql_type = Timestamptz)]
    pub last_message_at: DateTime<Utc>,
    /// Its latest message's text.
    #[diesel(sql_type = Text)]
    pub last_body: String,
    /// Its latest message's sender.
    #[diesel(sql_type = Nullable<Text>)]
    pub last_sender_name: Option<String>,
    /// Who its latest message is from.
    #[diesel(sql_type = Text)]
    pub last_sender_type: String,
    /// Threads matching the filter (the same on every row, for paging).
    #[diesel(sql_type = BigInt)]
    pub total: i64,
}

/// What the inbox lists.
#[derive(Debug, Clone, Default)]
pub struct ThreadFilter {
    /// Only threads with unread messages.
    pub unread_only: bool,
    /// Only threads about this order.
    pub sales_order_id: Option<i64>,
    /// Words in a subject, a message, an order number or a customer's name.
    pub search: Option<String>,
}

/// The threads, latest activity first.
pub async fn threads(
    conn: &mut AsyncPgConnection,
    filter: &ThreadFilter,
    offset: i64,
    limit: i64,
) -> AppResult<Vec<ThreadSummaryRow>> {
    let search = filter
        .search
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(crate::platform::db::like_pattern);
    // One pass: each thread's first and latest messages by id, its counts, then the page.
    Ok(diesel::sql_query(
        "WITH t AS (
             SELECT thread_id, min(id) AS first_id, max(id) AS last_id, count(*) AS message_count,
                    count(*) FILTER (WHERE read_at IS NULL) AS unread_count,
                    max(created_at) AS last_message_at
               FROM order_messages GROUP BY thread_id
         )
         SELECT t.thread_id, f.thread_subject, f.sales_order_id, so.order_number,
                so.customer_name, t.message_count, t.unread_count, t.last_message_at,
                l.body AS last_body, l.sender_name AS last_sender_name,
                l.sender_type AS last_sender_type, count(*) OVER () AS total
           FROM t
           JOIN order_messages f ON f.id = t.first_id
           JOIN order_messages l ON l.id = t.last_id
           LEFT JOIN sales_orders so ON so.id = f.sales_order_id
          WHERE (NOT $1 OR t.unread_count > 0)
            AND ($2::BIGINT IS NULL OR f.sales_order_id = $2)
            AND ($3::TEXT IS NULL OR f.thread_subject ILIKE $3 OR so.order_number ILIKE $3
                 OR so.customer_name ILIKE $3
                 OR EXISTS (SELECT 1 FROM order_messages m
                             WHERE m.thread_id = t.thread_id AND m.body ILIKE $3))
          ORDER BY t.last_message_at DESC, t.last_id DESC
          OFFSET $4 LIMIT $5",
    )
    .bind::<Bool, _>(filter.unread_only)
    .bind::<Nullable<BigInt>, _>(filter.sales_order_id)
    .bind::<Nullable<Text>, _>(search)
    .bind::<BigInt, _>(offset)
    .bind::<BigInt, _>(limit)
    .load(conn)
    .await?)
}

/// A thread's messages, oldest first (empty when there is no such thread).
pub async fn thread(conn: &mut AsyncPgConnection, thread_id: Uuid) -> AppResult<Vec<MessageRow>> {
    Ok(order_messages::table
        .filter(order_messages::thread_id.eq(thread_id))
        .order(order_messages::id)
        .select(MessageRow::as_select())
        .load(conn)
        .await?)
}

/// The message with this id.
pub async fn find(conn: &mut AsyncPgConnection, id: i64) -> AppResult<Option<MessageRow>> {
    Ok(order_messages::table
        .find(id)
        .select(MessageRow::as_select())
        .first(conn)
        .await
        .optional()?)
}

/// Unread messages in every thread (the badge).
pub async fn unread_count(conn: &mut AsyncPgConnection) -> AppResult<i64> {
    Ok(order_messages::table
        .filter(order_messages::read_at.is_null())
        .count()
        .get_result(conn)
        .await?)
}

/// Stores a message.
pub async fn insert(conn: &mut AsyncPgConnection, message: &NewMessage) -> AppResult<MessageRow> {
    Ok(diesel::insert_into(order_messages::table)
        .values(message)
        .returning(MessageRow::as_returning())
        .get_result(conn)
        .await?)
}

/// Marks a thread's unread messages read; how many were.
pub async fn mark_thread_read(conn: &mut AsyncPgConnection, thread_id: Uuid) -> AppResult<usize> {
    Ok(diesel::update(
        order_messages::table
            .filter(order_messages::thread_id.eq(thread_id))
            .filter(order_messages::read_at.is_null()),
    )
    .set(order_messages::read_at.eq(diesel::dsl::now))
    .execute(conn)
    .await?)
}

/// Marks one message read (a message read before keeps its time).
pub async fn mark_read(conn: &mut AsyncPgConnection, id: i64) -> AppResult<Option<MessageRow>> {
    diesel::update(
        order_messages::table
            .find(id)
            .filter(order_messages::read_at.is_null()),
    )
    .set(order_messages::read_at.eq(diesel::dsl::now))
    .execute(conn)
    .await?;
    find(conn, id).await
}
