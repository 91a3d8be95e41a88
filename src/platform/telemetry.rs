//! Logging (spec 1.3): JSON lines with `timestamp`, `level`, `logger`, `message` and the
//! `request_id` of the request being served, or human-readable text.
//!
//! The request id lives on the `request` span opened by the HTTP middleware; every event
//! emitted inside that span (however deep in the stack, as long as the span is entered or
//! the future is instrumented) finds it by walking its span scope.

use std::fmt::Write as _;
use std::io::Write as _;

use serde_json::{Map, Value};
use tracing::field::{Field, Visit};
use tracing::{Event, Subscriber};
use tracing_subscriber::fmt::MakeWriter;
use tracing_subscriber::layer::{Context, SubscriberExt};
use tracing_subscriber::registry::LookupSpan;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{EnvFilter, Layer, Registry};

use crate::platform::config::{LogFormat, LogLevel};

/// Field names whose values are never written, whatever a caller logs by mistake.
const REDACTED_FIELDS: &[&str] = &[
    "password",
    "new_password",
    "password_hash",
    "token",
    "access_token",
    "refresh_token",
    "secret",
    "secret_key",
    "authorization",
    "cookie",
    "approval_token",
    "reset_token",
];

/// The filter for a level: our own crate at that level, chatty dependencies quieter.
pub fn filter(level: LogLevel) -> EnvFilter {
    let level = level.directive();
    EnvFilter::new(format!(
        "{level},tokio_postgres=warn,hyper=warn,hyper_util=warn,h2=warn,tower_http=warn,async_graphql=warn,lettre=warn"
    ))
}

/// Installs the global subscriber writing to stdout. Call once, at start-up.
pub fn init(level: LogLevel, format: LogFormat) {
    init_with_writer(level, format, std::io::stdout);
}

/// Installs the global subscriber with a custom writer (tests capture the lines this way).
/// A second call is ignored.
pub fn init_with_writer<W>(level: LogLevel, format: LogFormat, writer: W)
where
    W: for<'w> MakeWriter<'w> + Send + Sync + 'static,
{
    let registry = Registry::default().with(filter(level));
    let _ = match format {
        LogFormat::Json => registry.with(JsonLayer { writer }).try_init(),
        LogFormat::Text => registry
            .with(
                tracing_subscriber::fmt::layer()
                    .with_writer(writer)
                    .with_target(true)
                    .with_ansi(false),
            )
            .try_init(),
    };
}

/// Fields recorded on a span, kept in its extensions so events can find them.
#[derive(Default)]
struct SpanFields(Map<String, Value>);

/// Writes each event as one JSON object per line.
pub struct JsonLayer<W> {
    writer: W,
}

impl<S, W> Layer<S> for JsonLayer<W>
where
    S: Subscriber + for<'a> LookupSpan<'a>,
    W: for<'w> MakeWriter<'w> + 'static,
{
    fn on_new_span(
        &self,
        attrs: &tracing::span::Attributes<'_>,
        id: &tracing::span::Id,
        ctx: Context<'_, S>,
    ) {
        let mut visitor = JsonVisitor::default();
        attrs.record(&mut visitor);
        if let Some(span) = ctx.span(id) {
            span.extensions_mut().insert(SpanFields(visitor.fields));
        }
    }

    fn on_record(
        &self,
        id: &tracing::span::Id,
        values: &tracing::span::Record<'_>,
        ctx: Context<'_, S>,
    ) {
        if let Some(span) = ctx.span(id) {
            let mut visitor = JsonVisitor::default();
            values.record(&mut visitor);
            let mut ext = span.extensions_mut();
            if let Some(fields) = ext.get_mut::<SpanFields>() {
                fields.0.extend(visitor.fields);
            }
        }
    }

    fn on_event(&self, event: &Event<'_>, ctx: Context<'_, S>) {
        let mut visitor = JsonVisitor::default();
        event.record(&mut visitor);
        let meta = event.metadata();

        let mut line = Map::new();
        line.insert(
            "timestamp".into(),
            Value::String(chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Micros, true)),
        );
        line.insert(
            "level".into(),
            Value::String(level_name(meta.level()).into()),
        );
        line.insert("logger".into(), Value::String(meta.target().into()));
        let message = visitor
            .fields
            .remove("message")
            .unwrap_or(Value::String(String::new()));
        line.insert("message".into(), message);

        // The innermost span that knows a request id wins; other span fields are context.
        let mut request_id = Value::Null;
        if let Some(scope) = ctx.event_scope(event) {
            for span in scope {
                let ext = span.extensions();
                if let Some(fields) = ext.get::<SpanFields>() {
                    for (k, v) in &fields.0 {
                        if k == "request_id" {
                            if request_id.is_null() {
                                request_id = v.clone();
                            }
                        } else if !line.contains_key(k) && !visitor.fields.contains_key(k) {
                            visitor.fields.insert(k.clone(), v.clone());
                        }
                    }
                }
            }
        }
        line.insert("request_id".into(), request_id);
        for (k, v) in visitor.fields {
            if !line.contains_key(&k) {
                line.insert(k, v);
            }
        }

        let mut text = Value::Object(line).to_string();
        text.push('\n');
        let mut writer = self.writer.make_writer();
        let _ = writer.write_all(text.as_bytes());
    }
}

fn level_name(level: &tracing::Level) -> &'static str {
    match *level {
        tracing::Level::ERROR => "ERROR",
        tracing::Level::WARN => "WARNING",
        tracing::Level::INFO => "INFO",
        tracing::Level::DEBUG => "DEBUG",
        tracing::Level::TRACE => "TRACE",
    }
}

#[derive(Default)]
struct JsonVisitor {
    fields: Map<String, Value>,
}

impl JsonVisitor {
    fn put(&mut self, field: &Field, value: Value) {
        let name = field.name();
        let value = if REDACTED_FIELDS.contains(&name.to_ascii_lowercase().as_str()) {
            Value::String("***".into())
        } else {
            value
        };
        self.fields.insert(name.to_string(), value);
    }
}

impl Visit for JsonVisitor {
    fn record_str(&mut self, field: &Field, value: &str) {
        self.put(field, Value::String(value.to_string()));
    }
    fn record_i64(&mut self, field: &Field, value: i64) {
        self.put(field, Value::from(value));
    }
    fn record_u64(&mut self, field: &Field, value: u64) {
        self.put(field, Value::from(value));
    }
    fn record_f64(&mut self, field: &Field, value: f64) {
        self.put(field, Value::from(value));
    }
    fn record_bool(&mut self, field: &Field, value: bool) {
        self.put(field, Value::from(value));
    }
    fn record_error(&mut self, field: &Field, value: &(dyn std::error::Error + 'static)) {
        self.put(field, Value::String(value.to_string()));
    }
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        let mut s = String::new();
        let _ = write!(s, "{value:?}");
        self.put(field, Value::String(s));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    #[derive(Clone, Default)]
    struct Buf(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Buf {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            if let Ok(mut v) = self.0.lock() {
                v.extend_from_slice(b);
            }
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl<'a> MakeWriter<'a> for Buf {
        type Writer = Buf;
        fn make_writer(&'a self) -> Buf {
            self.clone()
        }
    }

    #[test]
    fn json_lines_carry_the_spec_fields_and_the_span_request_id() {
        let buf = Buf::default();
        let subscriber = Registry::default().with(JsonLayer {
            writer: buf.clone(),
        });
        tracing::subscriber::with_default(subscriber, || {
            let span = tracing::info_span!("request", request_id = "req-1", method = "GET");
            let _g = span.enter();
            tracing::info!(password = "hunter2", answer = 42, "deep inside");
        });
        let text = String::from_utf8(buf.0.lock().expect("lock").clone()).expect("utf8");
        let line: Value = serde_json::from_str(text.trim()).expect("json");
        assert_eq!(line["level"], "INFO");
        assert_eq!(line["message"], "deep inside");
        assert_eq!(line["request_id"], "req-1");
        assert_eq!(line["answer"], 42);
        assert_eq!(line["method"], "GET");
        assert_eq!(line["password"], "***");
        assert!(
            line["logger"]
                .as_str()
                .is_some_and(|s| s.starts_with("strata"))
        );
        let ts = line["timestamp"].as_str().expect("timestamp");
        assert!(ts.ends_with('Z') && chrono::DateTime::parse_from_rfc3339(ts).is_ok());
        assert!(!text.contains("hunter2"));
    }
}
