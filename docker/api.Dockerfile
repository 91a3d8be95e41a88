# syntax=docker/dockerfile:1
#
# Strata API image: the `strata` binary on debian:bookworm-slim, running as UID 1000.
# The same image runs the one-shot migration job (`strata migrate`) and the API
# server (`strata serve`). Build context: the repository root.
#   docker build -f docker/api.Dockerfile -t strata-api .
# Normally built by docker/compose.yml (`docker compose build`).

ARG RUST_IMAGE=rust:1.95-bookworm
ARG RUNTIME_IMAGE=debian:bookworm-slim

# ---- 1. build ---------------------------------------------------------------------
FROM ${RUST_IMAGE} AS build
WORKDIR /src
ENV CARGO_TERM_COLOR=never CARGO_INCREMENTAL=0

# 1a. Dependencies only, in their own layer: rebuilt only when Cargo.toml or
#     Cargo.lock change. A dummy crate with the same targets (lib + bin) stands in
#     for the real source; its own artefacts are removed afterwards.
COPY Cargo.toml Cargo.lock ./
RUN mkdir -p src \
    && echo 'fn main() {}' > src/main.rs \
    && : > src/lib.rs \
    && cargo build --release --locked --bin strata \
    && rm -rf src \
       target/release/strata target/release/strata.d \
       target/release/deps/strata-* target/release/deps/libstrata-* \
       target/release/.fingerprint/strata-*

# 1b. The real source. .dockerignore keeps target/, .data/, .git and node_modules
#     out of the context. Everything else is copied so that files read at compile
#     time (migrations/ for the embedded migrations, schema files, build.rs) are there.
COPY . .
# Sources copied from the context may carry an mtime older than the dummy build's
# outputs: touch them so that cargo never mistakes the dummy crate for the real one.
RUN find src -type f -exec touch {} + \
    && cargo build --release --locked --bin strata \
    && install -D -m 0755 target/release/strata /out/strata \
    && /out/strata --help >/dev/null

# ---- 2. runtime -------------------------------------------------------------------
FROM ${RUNTIME_IMAGE} AS runtime
# ca-certificates: TLS to SMTP servers and the error tracker; tini: a proper PID 1
# (signal forwarding, zombie reaping); tzdata: correct local times in logs of tools.
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
       ca-certificates tini tzdata \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --gid 1000 strata \
    && useradd --uid 1000 --gid 1000 --home-dir /app --no-create-home \
       --shell /usr/sbin/nologin strata \
    && mkdir -p /app/uploads \
    && chown -R 1000:1000 /app

COPY --from=build /out/strata /usr/local/bin/strata

# Defaults for the container; everything else comes from the environment
# (docker/compose.yml passes every variable of spec 1.1, see docker/.env.example).
ENV HOST=0.0.0.0 \
    PORT=8000 \
    UPLOADS_DIR=/app/uploads \
    ENVIRONMENT=production \
    LOG_FORMAT=json \
    LOG_LEVEL=INFO

WORKDIR /app
VOLUME ["/app/uploads"]
USER 1000:1000
EXPOSE 8000

# `strata healthcheck` GETs http://127.0.0.1:$PORT/health: exit 0 on 200, 1 otherwise.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["strata", "healthcheck"]

ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["strata", "serve"]
