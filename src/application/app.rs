//! The application: shared state, the axum router (health, `/graphql`, `/api/v1`, the SPA)
//! with its middleware stack, and the server loop with graceful shutdown.

use std::net::SocketAddr;
use std::sync::Arc;

use async_graphql::http::GraphiQLSource;
use async_graphql_axum::GraphQLProtocol;
use axum::extract::WebSocketUpgrade;
use axum::extract::{Extension, Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use tower_http::cors::{AllowOrigin, CorsLayer};
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::services::{ServeDir, ServeFile};
use tower_http::timeout::TimeoutLayer;

use crate::application::areas;
use crate::platform::auth::rate_limit::RateLimits;
use crate::platform::auth::tokens::TokenKeys;
use crate::platform::config::Config;
use crate::platform::db::DbPool;
use crate::platform::error::AppError;
use crate::platform::graphql::{Mode, SchemaData};
use crate::platform::http::client_ip::TrustedProxies;
use crate::platform::http::{ClientIp, RequestId, request_context, security_headers};
use crate::platform::mail::Mailer;

/// Signed-in tokens whose viewers are kept (about 200 bytes each).
const KNOWN_VIEWERS: usize = 10_000;

pub use crate::platform::http::state::AppState;

impl AppState {
    /// Assembles the state from a configuration and a pool.
    pub fn new(config: Config, pool: DbPool) -> AppState {
        let config = Arc::new(config);
        let rate_limits = Arc::new(RateLimits::default());
        let token_keys = TokenKeys::new(config.secret_key.expose());
        let validator = areas::schema(Mode::Validation, None);
        let data = SchemaData {
            pool: pool.clone(),
            config: config.clone(),
            token_keys: token_keys.clone(),
            mailer: Mailer::from_config(&config.smtp),
            rate_limits: rate_limits.clone(),
            live: crate::platform::graphql::live::LiveHub::new(config.database.url.expose()),
            validator: Some(validator.clone()),
        };
        AppState {
            schema: areas::schema(Mode::Served, Some(data.clone())),
            rest_schema: areas::schema(Mode::Trusted, Some(data)),
            validator,
            on_rate_limited: crate::master_data::audit::rate_limited,
            token_keys,
            answers: crate::platform::http::answer_cache::AnswerCache::new(
                config.response_cache_mb,
            ),
            // Off with the answer cache: one switch for everything kept between requests.
            viewers: Arc::new(crate::platform::auth::viewer::KnownViewers::new(
                if config.response_cache_mb == 0 {
                    0
                } else {
                    KNOWN_VIEWERS
                },
            )),
            config,
            pool,
            rate_limits,
        }
    }
}

/// Starts the job worker for a server's state with every job kind of the service.
pub fn start_jobs(
    state: &AppState,
    options: crate::platform::jobs::WorkerOptions,
) -> crate::platform::jobs::WorkerHandle {
    crate::platform::jobs::start_for(state, areas::jobs(), options)
}

/// The full router with every middleware layer. Fails (and so does start-up) when a stored
/// REST operation is broken, naming the route.
pub fn router(state: AppState) -> anyhow::Result<Router> {
    let config = state.config.clone();
    let production = config.is_production();

    // Database-bound routes shed load beyond what the pool can serve (503 + Retry-After).
    let overload =
        crate::platform::http::overload::Overload::for_pool(config.database.max_connections());
    let shed = middleware::from_fn_with_state(overload, crate::platform::http::overload::limit);

    let api = crate::platform::rest::router(&config, areas::route_table()?)?
        .fallback(api_not_found)
        .layer(shed.clone());

    // Bodies are bounded: `/graphql` and every facade route by MAX_BODY_BYTES, the facade's
    // upload routes by MAX_UPLOAD_BYTES (the facade sets its limits per route).
    let limited = Router::new()
        .route("/graphql", get(graphiql).post(graphql))
        .layer(RequestBodyLimitLayer::new(config.max_body_bytes))
        .layer(shed);

    let mut app = Router::new()
        .route("/health", get(crate::platform::health::health))
        .route("/graphql/ws", get(graphql_ws))
        .merge(limited)
        .nest("/api/v1", api)
        .with_state(state);

    app = match spa_service(&config) {
        Some(spa) => app.fallback_service(spa),
        None => app.route("/", get(root)).fallback(not_found),
    };

    let trusted = TrustedProxies(config.trusted_proxies.clone());
    let tracking = config.errortrack_dsn.is_some();
    // A panic anywhere below (a bug, or one in a dependency) still answers: a 500 in the
    // one error shape, never a dropped connection.
    Ok(app
        .layer(tower_http::catch_panic::CatchPanicLayer::custom(
            |_: Box<dyn std::any::Any + Send + 'static>| {
                AppError::internal("a request handler panicked").into_response()
            },
        ))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::SERVICE_UNAVAILABLE,
            config.request_timeout,
        ))
        .layer(middleware::from_fn_with_state(
            crate::platform::http::csrf::CsrfPolicy::from_config(&config),
            crate::platform::http::csrf::guard,
        ))
        .layer(cors_layer(&config))
        .layer(middleware::map_response(
            move |mut response: Response| async move {
                security_headers::apply(response.headers_mut(), production);
                response
            },
        ))
        .layer(Extension(trusted))
        // Error tracking costs a hub per request: only when ERRORTRACK_DSN is set.
        .layer(tower::util::option_layer(tracking.then(|| {
            middleware::from_fn(crate::platform::error::tracking::tag_request)
        })))
        .layer(tower::util::option_layer(
            tracking.then(sentry::integrations::tower::SentryHttpLayer::new),
        ))
        .layer(tower::util::option_layer(tracking.then(
            sentry::integrations::tower::NewSentryLayer::<Request>::new_from_top,
        )))
        .layer(middleware::from_fn(request_context::request_context)))
}

/// Exact origins from `ALLOWED_ORIGINS`, with credentials. A development-only `*` mirrors the
/// caller's origin (a literal `*` is not allowed together with credentials).
fn cors_layer(config: &Config) -> CorsLayer {
    let origins = if config.allowed_origins.iter().any(|o| o == "*") {
        AllowOrigin::mirror_request()
    } else {
        AllowOrigin::list(
            config
                .allowed_origins
                .iter()
                .filter_map(|o| HeaderValue::from_str(o).ok()),
        )
    };
    CorsLayer::new()
        .allow_origin(origins)
        .allow_credentials(true)
        .allow_methods([
            Method::GET,
            Method::POST,
            Method::PUT,
            Method::PATCH,
            Method::DELETE,
            Method::OPTIONS,
        ])
        .allow_headers([
            header::AUTHORIZATION,
            header::CONTENT_TYPE,
            header::ACCEPT,
            header::ORIGIN,
            header::HeaderName::from_static("x-requested-with"),
            header::HeaderName::from_static("x-request-id"),
        ])
        .expose_headers([header::HeaderName::from_static("x-request-id")])
}

/// The built SPA, when `SPA_DIR/index.html` exists: files as they are, deep links fall back
/// to `index.html`; hashed assets are cached for a year, `index.html` never.
fn spa_service(config: &Config) -> Option<Router> {
    let index = config.spa_dir.join("index.html");
    if !index.is_file() {
        return None;
    }
    let files = ServeDir::new(&config.spa_dir).fallback(ServeFile::new(index));
    Some(
        Router::new()
            .fallback_service(files)
            .layer(middleware::from_fn(spa_cache_headers)),
    )
}

async fn spa_cache_headers(req: Request, next: Next) -> Response {
    let hashed_asset = req.uri().path().starts_with("/assets/");
    let mut response = next.run(req).await;
    let value = if hashed_asset && response.status().is_success() {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static(value));
    response
}

async fn root() -> Json<serde_json::Value> {
    Json(serde_json::json!({
        "message": "Strata ERP API",
        "version": crate::VERSION,
        "status": "online",
    }))
}

async fn api_not_found() -> AppError {
    AppError::not_found("Not Found")
}

async fn not_found() -> AppError {
    AppError::not_found("Not Found")
}

/// `GET /graphql`: the GraphiQL playground.
async fn graphiql() -> impl IntoResponse {
    Html(
        GraphiQLSource::build()
            .endpoint("/graphql")
            .subscription_endpoint("/graphql/ws")
            .title("Strata GraphQL")
            .finish(),
    )
}

/// `POST /graphql`: runs one operation with the request's context attached, after the
/// checks of [`crate::platform::http::graphql`].
async fn graphql(
    State(state): State<AppState>,
    Extension(request_id): Extension<RequestId>,
    ClientIp(client_ip): ClientIp,
    headers: axum::http::HeaderMap,
    body: Result<axum::body::Bytes, axum::extract::rejection::BytesRejection>,
) -> Response {
    let request = match crate::platform::http::graphql::read_request(&headers, body).await {
        Ok(request) => request,
        Err(refusal) => return refusal,
    };
    tracing::debug!(
        operation = request.operation_name.as_deref().unwrap_or("anonymous"),
        "executing GraphQL operation"
    );
    let meta = crate::platform::http::meta::request_meta(&headers, client_ip, &request_id);
    crate::platform::http::graphql::serve(&state, &headers, meta, request.data(request_id)).await
}

/// `GET /graphql/ws`: subscriptions over graphql-ws (see [`crate::platform::http::subscriptions`]).
async fn graphql_ws(
    State(state): State<AppState>,
    Extension(request_id): Extension<RequestId>,
    ClientIp(client_ip): ClientIp,
    headers: axum::http::HeaderMap,
    protocol: GraphQLProtocol,
    upgrade: WebSocketUpgrade,
) -> Response {
    let meta = crate::platform::http::meta::request_meta(&headers, client_ip, &request_id);
    crate::platform::http::subscriptions::serve(&state, meta, protocol, upgrade)
}

/// Binds the listener and serves until SIGTERM or Ctrl-C; in-flight requests finish first.
pub async fn serve(state: AppState) -> anyhow::Result<()> {
    let addr = SocketAddr::new(state.config.host, state.config.port);
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| anyhow::anyhow!("cannot listen on {addr}: {e}"))?;
    tracing::info!(address = %addr, version = crate::VERSION, "strata is listening");
    serve_on(listener, state, shutdown_signal()).await
}

/// Serves on an already-bound listener until `shutdown` completes (tests use this).
pub async fn serve_on(
    listener: tokio::net::TcpListener,
    state: AppState,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let app = router(state)?;
    axum::serve(
        listener,
        app.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(shutdown)
    .await?;
    tracing::info!("strata stopped");
    Ok(())
}

/// Completes on SIGTERM or Ctrl-C.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = terminate => {},
    }
    tracing::info!("shutdown requested; finishing in-flight requests");
}
