"""How much schema-valid input gets past validation, per operation, from a schemathesis HAR.

Reads the OpenAPI document (to map each request back to its operation) and the HAR of a
positive-mode run (every request generated to match the schema), then prints, per write
operation that never got past validation, what refused it, and the totals:

- *reached*: an operation some generated request got past validation with: any answer but
  403 (not allowed), 429 (rate limits) or a 422 from binding (a 401 from the sign-in routes
  is their logic refusing generated credentials). A 404 for a generated id, a 409,
  a rule's 400, and a rule's own 422 (every error a `value_error` other than "Field required"
  or a GraphQL type error, or an Idempotency-Key replayed with another body, which the
  generator does by reusing header values) count: the request reached the logic.
- *2xx*: the share of all requests answered 2xx.

Exits 1 when the share of write operations reached is below the floor (--floor, percent).
"""
import argparse
import collections
import json
import re
import sys

WRITE = {"POST", "PUT", "PATCH", "DELETE"}
BLOCKED = {403, 429}
# Error types a rule gives (the binder's own are specific: missing, int_parsing, enum...).
RULE_TYPES = {"value_error", "idempotency_key_reused"}


def binding_refusal(body):
    """Whether a 422 body is the binder's (or GraphQL's) refusal rather than a rule's."""
    errors = body.get("details", {}).get("errors") or []
    if not errors:
        return True
    for err in errors:
        message = err.get("message", "")
        if err.get("type") not in RULE_TYPES or message == "Field required" \
                or message.startswith("Expected input type") or message.startswith("Malformed multipart"):
            return True
    return False


def operations(spec):
    ops = []
    for path, item in spec["paths"].items():
        parts = re.split(r"\{[^/]+?\}", path)
        pattern = re.compile("^" + "[^/]+".join(re.escape(p) for p in parts) + "$")
        for method in item:
            if method.upper() in WRITE | {"GET"}:
                ops.append((method.upper(), path, pattern))
    # Literal paths before templated ones of the same shape.
    ops.sort(key=lambda o: o[1].count("{"))
    return ops


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("spec")
    parser.add_argument("har")
    parser.add_argument("--floor", type=float, default=0.0)
    parser.add_argument("--prefix", default="/api/v1")
    args = parser.parse_args()
    with open(args.spec) as f:
        spec = json.load(f)
    with open(args.har) as f:
        entries = json.load(f)["log"]["entries"]
    ops = operations(spec)
    seen = collections.defaultdict(collections.Counter)
    refusals = collections.defaultdict(collections.Counter)
    ok = total = 0
    for e in entries:
        method = e["request"]["method"].upper()
        url = e["request"]["url"].split("?")[0]
        path = re.sub(r"^https?://[^/]+", "", url)
        if path.startswith(args.prefix):
            path = path[len(args.prefix):]
        op = next((o for o in ops if o[0] == method and o[2].match(path)), None)
        if op is None:
            continue
        status = e["response"]["status"]
        total += 1
        ok += 200 <= status < 300
        key = (method, op[1])
        if status == 422:
            try:
                body = json.loads(e["response"]["content"].get("text") or "{}")
            except ValueError:
                body = {}
            if binding_refusal(body):
                for err in body.get("details", {}).get("errors", []) or [{"field": "-", "message": body.get("message", "")}]:
                    refusals[key][f"{err.get('field')}: {err.get('message', '')[:80]}"] += 1
            else:
                status = 4220  # a rule's 422: the request reached the logic
        seen[key][status] += 1
    writes = [k for k in seen if k[0] in WRITE]
    reached = [k for k in writes if any(s not in BLOCKED | {422} for s in seen[k])]
    for k in sorted(set(writes) - set(reached)):
        top = "; ".join(f"{m} ({n})" for m, n in refusals[k].most_common(2)) or dict(seen[k])
        print(f"  not reached: {k[0]} {k[1]}: {top}")
    share = 100.0 * len(reached) / max(len(writes), 1)
    reads = [k for k in seen if k[0] == "GET"]
    reads_reached = [k for k in reads if any(s not in BLOCKED | {422} for s in seen[k])]
    all_writes = sum(1 for o in ops if o[0] in WRITE)
    print(f"fuzz acceptance: {len(writes)} of {all_writes} write operations tested; "
          f"{len(reached)} of {len(writes)} ({share:.1f}%) and "
          f"{len(reads_reached)} of {len(reads)} reads got past validation with schema-valid input; "
          f"{100.0 * ok / max(total, 1):.1f}% of {total} requests answered 2xx (floor: {args.floor:.0f}% of writes)")
    sys.exit(0 if share >= args.floor else 1)


if __name__ == "__main__":
    main()
