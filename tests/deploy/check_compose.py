#!/usr/bin/env python3
"""Structure of the Docker stack, checked without a Docker engine.

Parses docker/compose.yml (PyYAML), docker/.env.example, the two Dockerfiles, the
nginx template and .dockerignore, and checks them against spec section 1 (services,
start-up order, health checks, ports, users, volumes, every variable of 1.1).
With STRATA_BIN set, also runs `strata config` with exactly the environment compose
would give the api container from .env.example, to prove the service accepts it.

Prints one `ok - ...` / `not ok - ...` line per check; exit status 1 on any failure.
"""
import os
import re
import subprocess
import sys
import tempfile

try:
    import yaml
except ImportError:  # the runner picks a python3 with PyYAML; this is a last resort
    print("not ok - PyYAML is importable (pip install pyyaml, or apt python3-yaml)")
    sys.exit(1)

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DOCKER = os.path.join(ROOT, "docker")
COMPOSE = os.path.join(DOCKER, "compose.yml")

# Spec 1.1, required then optional. Cross-checked below against the spec itself when
# the shared spec is beside the repository.
SPEC_VARS = [
    "DB_HOST", "DB_PORT", "DB_NAME", "DB_USER", "DB_PASSWORD", "SECRET_KEY",
    "ALLOWED_ORIGINS", "ENVIRONMENT",
    "DATABASE_URL", "FRONTEND_URL", "ACCESS_TOKEN_EXPIRE_MINUTES", "LOG_LEVEL",
    "LOG_FORMAT", "TIER", "ERRORTRACK_DSN", "KVSTORE_URL", "AUTH_MODE", "SMTP_HOST",
    "SMTP_PORT", "SMTP_USER", "SMTP_PASSWORD", "SMTP_FROM_EMAIL", "SMTP_FROM_NAME",
    "ADMIN_APPROVAL_EMAIL",
]
STRATA_VARS = ["HOST", "PORT", "TRUSTED_PROXIES", "UPLOADS_DIR", "REQUEST_TIMEOUT_SECONDS",
               "MAX_BODY_BYTES", "MAX_UPLOAD_BYTES", "RESPONSE_CACHE_MB"]
# Printed by `strata config` but not settings of the container: derived from the URL, or
# the SPA directory that only `scripts/run` uses (the web image serves the SPA).
CONFIG_NOT_ENV = {"DB_POOL_SIZE", "DB_MAX_OVERFLOW", "SPA_DIR"}

failures = 0


def check(name, cond, *diag):
    global failures
    if cond:
        print(f"ok - {name}")
    else:
        failures += 1
        print(f"not ok - {name}")
        for line in diag:
            print(f"#   {line}")
    return cond


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def duration_seconds(value):
    """Compose durations: 5s, 1m30s, 500ms."""
    total = 0.0
    for number, unit in re.findall(r"(\d+(?:\.\d+)?)(ms|us|h|m|s)", str(value)):
        total += float(number) * {"h": 3600, "m": 60, "s": 1, "ms": 0.001, "us": 1e-6}[unit]
    return total


def as_list(command):
    return command if isinstance(command, list) else str(command).split()


def env_dict(service):
    env = service.get("environment") or {}
    if isinstance(env, list):
        env = dict(item.split("=", 1) if "=" in item else (item, None) for item in env)
    return env


def interpolate(value, variables):
    """Compose-style ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?err}, $$."""
    if value is None:
        return None
    value = str(value)
    pattern = re.compile(r"\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)")

    def repl(m):
        if m.group(0) == "$$":
            return "$"
        name = m.group(1) or m.group(4)
        op, arg = m.group(2), m.group(3)
        present = name in variables
        val = variables.get(name, "")
        if op == ":-":
            return val if val else arg
        if op == "-":
            return val if present else arg
        if op in (":?", "?"):
            if (op == ":?" and not val) or (op == "?" and not present):
                raise ValueError(f"required variable {name} missing: {arg}")
            return val
        return val

    return pattern.sub(repl, value)


def parse_env_file(path):
    result = {}
    for line in read(path).splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, val = line.split("=", 1)
        result[key.strip()] = val.strip()
    return result


# ------------------------------------------------------------------ compose file
try:
    compose = yaml.safe_load(read(COMPOSE))
    check("compose: docker/compose.yml parses as YAML", isinstance(compose, dict))
except Exception as e:  # noqa: BLE001
    check("compose: docker/compose.yml parses as YAML", False, str(e))
    sys.exit(1)

check("compose: fixed project name (volumes do not depend on the directory)", compose.get("name") == "strata",
      f"name: {compose.get('name')!r}")
services = compose.get("services") or {}
check("compose: services db, migrate, api, web", {"db", "migrate", "api", "web"} <= set(services),
      f"services: {sorted(services)}")
db, migrate, api, web = (services.get(n) or {} for n in ("db", "migrate", "api", "web"))


def depends(service, on):
    dep = service.get("depends_on") or {}
    if isinstance(dep, list):
        return "service_started" if on in dep else None
    return (dep.get(on) or {}).get("condition", "service_started") if on in dep else None


# db
check("db: image postgres:15", str(db.get("image", "")).split("@")[0] in ("postgres:15", "postgres:15-bookworm", "postgres:15-alpine"),
      f"image: {db.get('image')}")
hc = db.get("healthcheck") or {}
check("db: healthcheck runs pg_isready", "pg_isready" in " ".join(as_list(hc.get("test", ""))), f"test: {hc.get('test')}")
check("db: healthcheck every 5s", duration_seconds(hc.get("interval")) == 5, f"interval: {hc.get('interval')}")
db_volumes = [str(v) for v in db.get("volumes") or []]
named = [v.split(":")[0] for v in db_volumes if v.endswith(":/var/lib/postgresql/data")]
check("db: data on a named volume", bool(named) and not named[0].startswith((".", "/"))
      and named[0] in (compose.get("volumes") or {}), f"volumes: {db_volumes}, top-level: {compose.get('volumes')}")
db_env = env_dict(db)
check("db: POSTGRES_DB/USER/PASSWORD from DB_NAME/DB_USER/DB_PASSWORD",
      "DB_NAME" in str(db_env.get("POSTGRES_DB")) and "DB_USER" in str(db_env.get("POSTGRES_USER"))
      and "DB_PASSWORD" in str(db_env.get("POSTGRES_PASSWORD")), f"environment: {db_env}")
check("db: port 5432 not published on the host", not db.get("ports"), f"ports: {db.get('ports')}")

# migrate
check("migrate: command is `strata migrate`", as_list(migrate.get("command")) == ["strata", "migrate"],
      f"command: {migrate.get('command')}")
check("migrate: depends on db being healthy", depends(migrate, "db") == "service_healthy",
      f"depends_on: {migrate.get('depends_on')}")
check("migrate: restart \"no\" (one-shot)", migrate.get("restart") == "no", f"restart: {migrate.get('restart')!r}")
check("migrate: same image as api", migrate.get("image") == api.get("image") and migrate.get("image"),
      f"{migrate.get('image')} vs {api.get('image')}")
check("migrate: runs as UID 1000", str(migrate.get("user", "")).split(":")[0] == "1000", f"user: {migrate.get('user')}")

# api
check("api: depends on migrate having completed successfully",
      depends(api, "migrate") == "service_completed_successfully", f"depends_on: {api.get('depends_on')}")
hc = api.get("healthcheck") or {}
check("api: healthcheck is `strata healthcheck`", as_list(hc.get("test"))[-2:] == ["strata", "healthcheck"],
      f"test: {hc.get('test')}")
check("api: healthcheck every 30s", duration_seconds(hc.get("interval")) == 30, f"interval: {hc.get('interval')}")
check("api: runs as UID 1000", str(api.get("user", "")).split(":")[0] == "1000", f"user: {api.get('user')}")
check("api: ./uploads mounted at /app/uploads", "./uploads:/app/uploads" in [str(v) for v in api.get("volumes") or []],
      f"volumes: {api.get('volumes')}")
check("api: command is `strata serve`", as_list(api.get("command") or ["strata", "serve"])[:2] == ["strata", "serve"],
      f"command: {api.get('command')}")
check("api: port 8000 inside the stack, not published", not api.get("ports") and "8000" in [str(p) for p in api.get("expose") or []],
      f"ports: {api.get('ports')}, expose: {api.get('expose')}")

# web
check("web: published as 80:8080", any(str(p).strip('"') in ("80:8080", "0.0.0.0:80:8080") for p in web.get("ports") or []),
      f"ports: {web.get('ports')}")
check("web: depends on api being healthy", depends(web, "api") == "service_healthy", f"depends_on: {web.get('depends_on')}")
check("web: nginx upstream is api:8000", env_dict(web).get("NGINX_API_UPSTREAM", "api:8000") == "api:8000",
      f"environment: {env_dict(web)}")

# builds
for name, dockerfile in (("api", "docker/api.Dockerfile"), ("migrate", "docker/api.Dockerfile"), ("web", "docker/web.Dockerfile")):
    build = services.get(name, {}).get("build") or {}
    context = os.path.normpath(os.path.join(DOCKER, build.get("context", ".")))
    check(f"{name}: built from {dockerfile} with the repository root as context",
          context == ROOT and build.get("dockerfile") == dockerfile
          and os.path.isfile(os.path.join(context, build.get("dockerfile", ""))), f"build: {build}")

# network and trusted proxies
subnets = [c.get("subnet") for c in (((compose.get("networks") or {}).get("default") or {}).get("ipam") or {}).get("config", [])]
api_env = env_dict(api)
check("network: fixed subnet", len(subnets) == 1 and subnets[0], f"subnets: {subnets}")
check("api: TRUSTED_PROXIES defaults to the stack's subnet",
      subnets and interpolate(api_env.get("TRUSTED_PROXIES"), {}) == subnets[0],
      f"TRUSTED_PROXIES: {api_env.get('TRUSTED_PROXIES')}, subnet: {subnets}")

# environment
for svc_name, svc in (("api", api), ("migrate", migrate)):
    env = env_dict(svc)
    missing = [v for v in SPEC_VARS + STRATA_VARS if v not in env]
    check(f"{svc_name}: every spec 1.1 variable (and the Strata extras) in the environment", not missing,
          f"missing: {missing}")
    passthrough = [v for v in SPEC_VARS if v in env and f"${{{v}" not in str(env[v])]
    check(f"{svc_name}: spec 1.1 variables are passed through from .env", not passthrough,
          f"not taken from .env: {passthrough}")
for required in ("DB_PASSWORD", "SECRET_KEY"):
    check(f"api: {required} is required (compose stops with a message when unset)",
          re.search(r"\$\{" + required + r":\?", str(api_env.get(required, ""))) is not None,
          f"{required}: {api_env.get(required)}")
check("api: UPLOADS_DIR is /app/uploads", api_env.get("UPLOADS_DIR") == "/app/uploads", f"UPLOADS_DIR: {api_env.get('UPLOADS_DIR')}")
check("api: PORT 8000", str(interpolate(api_env.get("PORT"), {})) == "8000", f"PORT: {api_env.get('PORT')}")

example_path = os.path.join(DOCKER, ".env.example")
example = parse_env_file(example_path) if os.path.isfile(example_path) else {}
example_text = read(example_path) if example else ""
missing = [v for v in SPEC_VARS if v not in example]
check("docker/.env.example: every spec 1.1 variable", not missing, f"missing: {missing}")
# HOST, PORT and UPLOADS_DIR are fixed by the image/stack; the other extras are settings.
missing = [v for v in STRATA_VARS if v not in example and v not in ("HOST", "PORT", "UPLOADS_DIR")]
check("docker/.env.example: the Strata settings (TRUSTED_PROXIES, ...)", not missing, f"missing: {missing}")
check("docker/.env.example: says how to generate SECRET_KEY", "openssl rand -hex 32" in example_text)
check("docker/.env.example: no secret filled in", not example.get("SECRET_KEY") and not example.get("DB_PASSWORD"),
      "SECRET_KEY and DB_PASSWORD must be empty in the example")
compose_vars = set(re.findall(r"(?<!\$)\$\{([A-Z_][A-Z0-9_]*)", read(COMPOSE)))
undocumented = sorted(compose_vars - set(example))
check("docker/.env.example: documents every variable compose.yml reads", not undocumented, f"undocumented: {undocumented}")


def has_comment_block(text, var):
    """The variable's line is part of a paragraph (no blank line) with a # comment."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(var + "="):
            j = i - 1
            while j >= 0 and lines[j].strip():
                if lines[j].lstrip().startswith("#"):
                    return True
                j -= 1
    return False


uncommented = [v for v in example if not has_comment_block(example_text, v)]
check("docker/.env.example: every variable has a comment", not uncommented, f"without comment: {uncommented}")

# the spec itself, when it is beside the repository
for spec_path in (os.path.join(ROOT, "..", "shared", "spec", "service-spec.md"),
                  os.path.join(ROOT, "shared", "spec", "service-spec.md")):
    if os.path.isfile(spec_path):
        section = read(spec_path).split("### 1.1", 1)[1].split("### 1.2", 1)[0]
        in_spec = re.findall(r"^\| ([A-Z][A-Z0-9_]+) \|", section, re.M)
        check("the variable list of this test is spec 1.1's", sorted(in_spec) == sorted(SPEC_VARS),
              f"spec: {sorted(in_spec)}", f"test: {sorted(SPEC_VARS)}")
        break

# interpolation with the example values (what `docker compose config` would produce)
values = dict(example)
values["DB_PASSWORD"] = "example-db-password-1f2e"
values["SECRET_KEY"] = "ab" * 32
try:
    rendered = {k: interpolate(v, values) for k, v in api_env.items()}
    check("compose: api environment interpolates with .env.example (+ secrets)", True)
except ValueError as e:
    rendered = {}
    check("compose: api environment interpolates with .env.example (+ secrets)", False, str(e))
try:
    {k: interpolate(v, {}) for k, v in api_env.items()}
    check("compose: refuses to start without DB_PASSWORD/SECRET_KEY", False, "interpolated without secrets")
except ValueError:
    check("compose: refuses to start without DB_PASSWORD/SECRET_KEY", True)

# ------------------------------------------------------------------ Dockerfiles
api_df = read(os.path.join(DOCKER, "api.Dockerfile"))
web_df = read(os.path.join(DOCKER, "web.Dockerfile"))


def arg_default(text, name):
    m = re.search(r"^ARG " + name + r"=(\S+)", text, re.M)
    return m.group(1) if m else None


def last_stage(text):
    return text[[m.start() for m in re.finditer(r"^FROM ", text, re.M)][-1]:]


def copy_sources(text):
    out = []
    for m in re.finditer(r"^COPY (?!--from)(?:--\S+ )*(.+)$", text, re.M):
        parts = m.group(1).split()
        out.extend(parts[:-1])
    return out


check("api.Dockerfile: multi-stage, runtime on debian:bookworm-slim",
      len(re.findall(r"^FROM ", api_df, re.M)) >= 2 and arg_default(api_df, "RUNTIME_IMAGE") == "debian:bookworm-slim")
check("api.Dockerfile: dependency layer built from Cargo.toml/Cargo.lock before the source",
      api_df.find("COPY Cargo.toml Cargo.lock") != -1
      and api_df.find("COPY Cargo.toml Cargo.lock") < api_df.find("cargo build") < api_df.find("COPY . ."))
runtime = last_stage(api_df)
check("api.Dockerfile: runs as UID 1000", re.search(r"^USER 1000(:1000)?$", runtime, re.M) is not None)
check("api.Dockerfile: HEALTHCHECK is `strata healthcheck`", 'CMD ["strata", "healthcheck"]' in runtime)
check("api.Dockerfile: EXPOSE 8000", re.search(r"^EXPOSE 8000$", runtime, re.M) is not None)
check("api.Dockerfile: /app/uploads is a volume", re.search(r'^VOLUME \["?/app/uploads"?\]', runtime, re.M) is not None)
missing = [s for s in copy_sources(api_df) if s not in (".",) and not os.path.exists(os.path.join(ROOT, s))]
check("api.Dockerfile: every COPY source exists", not missing, f"missing: {missing}")

check("web.Dockerfile: node build stage then nginx stage",
      re.search(r"^ARG NODE_IMAGE=node:", web_df, re.M) is not None and "npm ci" in web_df and "npm run build" in web_df
      and "nginx" in (arg_default(web_df, "NGINX_IMAGE") or ""))
web_runtime = last_stage(web_df)
user = re.findall(r"^USER (\S+)$", web_runtime, re.M)
check("web.Dockerfile: nginx runs as a non-root user", bool(user) and user[-1] not in ("root", "0"), f"USER: {user}")
check("web.Dockerfile: EXPOSE 8080", re.search(r"^EXPOSE 8080$", web_runtime, re.M) is not None)
missing = [s for s in copy_sources(web_df) if not s.startswith("frontend/") and not os.path.exists(os.path.join(ROOT, s.rstrip("/")))]
check("web.Dockerfile: every COPY source of docker/ exists", not missing, f"missing: {missing}")
template = read(os.path.join(DOCKER, "nginx", "templates", "default.conf.template"))
tvars = set(re.findall(r"\$\{(NGINX_[A-Z_]+)\}", template))
undefined = sorted(v for v in tvars if not re.search(r"\b" + v + r"=", web_runtime))
check("web.Dockerfile: a default for every variable of the nginx template", not undefined, f"no ENV default: {undefined}")
check("web.Dockerfile: template rendering limited to NGINX_* variables", "NGINX_ENVSUBST_FILTER=^NGINX_" in web_runtime)
check("nginx template: listens on the NGINX_PORT (8080 in the image)",
      re.search(r"listen \$\{NGINX_PORT\};", template) is not None and re.search(r"NGINX_PORT=8080\b", web_runtime) is not None)

dockerignore = [l.strip() for l in read(os.path.join(ROOT, ".dockerignore")).splitlines()]
wanted = {".git": (".git", ".git/"), "target/": ("target", "target/"), ".data/": (".data", ".data/"),
          "frontend/node_modules": ("frontend/node_modules", "**/node_modules")}
missing = [k for k, alts in wanted.items() if not any(a in dockerignore for a in alts)]
check(".dockerignore: excludes target/, .data/, node_modules and .git", not missing, f"missing: {missing}")

# The dependency layer of api.Dockerfile builds a dummy crate (src/main.rs, src/lib.rs)
# with the real Cargo.toml: the manifest must load with only those files present.
cargo = subprocess.run(["sh", "-c", "command -v cargo"], capture_output=True, text=True).stdout.strip()
if cargo:
    with tempfile.TemporaryDirectory() as tmp:
        for f in ("Cargo.toml", "Cargo.lock"):
            if os.path.exists(os.path.join(ROOT, f)):
                with open(os.path.join(tmp, f), "w") as out:
                    out.write(read(os.path.join(ROOT, f)))
        os.mkdir(os.path.join(tmp, "src"))
        with open(os.path.join(tmp, "src", "main.rs"), "w") as out:
            out.write("fn main() {}\n")
        open(os.path.join(tmp, "src", "lib.rs"), "w").close()
        r = subprocess.run([cargo, "metadata", "--no-deps", "--offline", "--format-version", "1"],
                           cwd=tmp, capture_output=True, text=True)
        check("api.Dockerfile: the dummy dependency build fits Cargo.toml (manifest loads with src/main.rs + src/lib.rs)",
              r.returncode == 0 and '"strata"' in r.stdout, (r.stderr or r.stdout)[-800:])

# ------------------------------------------------------------------ the service accepts it
strata = os.environ.get("STRATA_BIN", "")
if rendered and strata and os.access(strata, os.X_OK):
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    env.update({k: ("" if v is None else str(v)) for k, v in rendered.items()})
    r = subprocess.run([strata, "config"], env=env, capture_output=True, text=True, timeout=30)
    out = r.stdout + r.stderr
    check("strata config accepts the compose environment (empty optional values = unset)", r.returncode == 0,
          f"exit {r.returncode}", out[-800:])
    check("strata config redacts SECRET_KEY and DB_PASSWORD",
          r.returncode == 0 and values["SECRET_KEY"] not in out and values["DB_PASSWORD"] not in out, out[-400:])
    check("strata config shows the compose settings (DB_HOST db, UPLOADS_DIR)",
          r.returncode == 0 and "@db:5432/" in out and "UPLOADS_DIR=/app/uploads" in out, out[-400:])
    printed = set(re.findall(r"^([A-Z][A-Z0-9_]+)=", r.stdout, re.M))
    unknown = sorted(printed - set(api_env) - CONFIG_NOT_ENV)
    check("compose passes every setting `strata config` knows", r.returncode == 0 and not unknown,
          f"settings of the service missing from compose.yml: {unknown}")
elif rendered:
    check("strata binary available to check the compose environment", False, f"STRATA_BIN='{strata}'")

sys.exit(1 if failures else 0)
