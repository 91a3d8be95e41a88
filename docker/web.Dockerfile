# syntax=docker/dockerfile:1
#
# Strata web image: the single-page app (frontend/) served by an unprivileged nginx
# that also proxies every path beginning /api (and /health, /graphql) to the API.
# Build context: the repository root.
#   docker build -f docker/web.Dockerfile -t strata-web .
# Normally built by docker/compose.yml (`docker compose build web`).

ARG NODE_IMAGE=node:22-bookworm-slim
ARG NGINX_IMAGE=nginxinc/nginx-unprivileged:1.27-alpine

# ---- 1. build the SPA -------------------------------------------------------------
FROM ${NODE_IMAGE} AS spa
WORKDIR /src/frontend
ENV CI=true NPM_CONFIG_UPDATE_NOTIFIER=false NPM_CONFIG_FUND=false NPM_CONFIG_AUDIT=false
# Dependencies first: this layer is rebuilt only when the lock file changes.
COPY frontend/package.json frontend/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY frontend/ ./
RUN npm run build && test -f dist/index.html

# ---- 2. serve it ------------------------------------------------------------------
FROM ${NGINX_IMAGE} AS web
# nginx-unprivileged runs as UID 101 (user nginx), listens on 8080 and keeps its pid
# and temporary files in /tmp. Root is needed only for these file operations.
USER root
RUN rm -f /etc/nginx/conf.d/default.conf \
    && mkdir -p /etc/nginx/templates /etc/nginx/snippets \
    && chown -R 101:101 /etc/nginx/conf.d
COPY docker/nginx/nginx.conf /etc/nginx/nginx.conf
COPY docker/nginx/snippets/ /etc/nginx/snippets/
COPY docker/nginx/templates/default.conf.template /etc/nginx/templates/default.conf.template
COPY --from=spa /src/frontend/dist/ /usr/share/nginx/html/

# Settings of templates/default.conf.template, rendered by the image's entrypoint at
# start (only variables whose names start with NGINX_ are substituted).
ENV NGINX_ENVSUBST_FILTER=^NGINX_ \
    NGINX_PORT=8080 \
    NGINX_API_UPSTREAM=api:8000 \
    NGINX_RESOLVER=127.0.0.11 \
    NGINX_SPA_ROOT=/usr/share/nginx/html \
    NGINX_CLIENT_MAX_BODY_SIZE=100m

USER 101
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
    CMD wget -q -O /dev/null http://127.0.0.1:8080/index.html || exit 1
STOPSIGNAL SIGQUIT
CMD ["nginx", "-g", "daemon off;"]
