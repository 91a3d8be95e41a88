//! A REST route as a declaration: no handler code per route.

use crate::platform::auth::Access;

/// The HTTP method of a route (domain modules never import axum).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Method {
    /// GET
    Get,
    /// POST
    Post,
    /// PUT
    Put,
    /// PATCH
    Patch,
    /// DELETE
    Delete,
}

impl Method {
    /// The method's name.
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
            Method::Put => "PUT",
            Method::Patch => "PATCH",
            Method::Delete => "DELETE",
        }
    }
}

/// How the request body maps onto the operation's variables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Body {
    /// No body is read.
    None,
    /// Each top-level key of the body (snake_case) is the variable of the same camelCase
    /// name. JSON and form-encoded bodies are both read.
    Fields,
    /// The whole JSON body is the named variable (an input object); its keys become the
    /// input's camelCase fields.
    Input(&'static str),
    /// A `multipart/form-data` body: every file part binds to the `Upload` variable of the
    /// part's (camelCased) name, every text part to the variable of its name. Upload routes
    /// accept bodies up to `MAX_UPLOAD_BYTES`.
    Multipart,
}

/// A list route's streamed export (`?format=csv` or `?format=ndjson`): every matching row,
/// read page by page through the same operation, written as it arrives. An operation that
/// answers all its rows at once (a report by month, say) names no `limit` and `offset`
/// (`""`): it runs once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Export {
    /// The key of the rows array in the response body (`""` when the body is the array).
    pub rows: &'static str,
    /// The variable that takes the page size.
    pub limit: &'static str,
    /// The variable that takes the rows to skip.
    pub offset: &'static str,
    /// The largest page the operation accepts.
    pub page_size: i64,
}

/// One route: method, canonical path and the original's aliases, the stored operation, how
/// the request binds to its variables, where the response body is in `data`, and the
/// success status.
///
/// Path parameters (`{id}`) and query parameters (`?include_inactive=true`) bind to the
/// variable of the same camelCase name and are coerced to its declared type. A mutation's
/// `userErrors` (selected without an alias) turn into the error response.
#[derive(Debug, Clone, Copy)]
pub struct Route {
    /// The method.
    pub method: Method,
    /// The canonical path under `/api/v1` (both trailing-slash spellings answer).
    pub path: &'static str,
    /// Other paths that run the same route (the original's spellings).
    pub aliases: &'static [&'static str],
    /// The stored GraphQL operation (one operation per document).
    pub operation: &'static str,
    /// The body binding.
    pub body: Body,
    /// The dotted path in `data` of the response body.
    pub response: &'static str,
    /// The success status.
    pub status: u16,
    /// Who may call it. The GraphQL guards enforce it; this declaration documents it and the
    /// authorization matrix test holds the two together.
    pub access: Access,
    /// Leave out fields that are null (bodies that differ by `AUTH_MODE`).
    pub omit_nulls: bool,
    /// One line for the API documentation.
    pub summary: &'static str,
    /// A read that answers 400 for a value CONTRACT gives a 400 of its own (mutations always
    /// may); documented in the OpenAPI document.
    pub refuses: bool,
    /// Keys of the response object whose fields are lifted into it (for envelopes such as
    /// `{items, total, limit, offset}` built from a connection's `pageInfo`).
    pub flatten: &'static [&'static str],
    /// A per-minute rate limit (by name, see `RateLimits::named`) counted for every request
    /// before anything else, malformed ones included.
    pub rate_limit: Option<&'static str>,
    /// When set, the response value is a string sent as-is with this content type (a CSV
    /// template, say) instead of JSON.
    pub raw: Option<&'static str>,
    /// Request headers bound to variables (`("Idempotency-Key", "idempotencyKey")`).
    pub headers: &'static [(&'static str, &'static str)],
    /// Writes repeated with the same `Idempotency-Key` by the same user within 24 hours
    /// answer the first result (200) and change nothing.
    pub idempotent: bool,
    /// A `Location` header for a 201, with `{field}`s filled from the response body
    /// (`/api/v1/items/{id}`).
    pub location: Option<&'static str>,
    /// The route also reads `application/x-www-form-urlencoded` bodies (login); every other
    /// body route reads JSON only (415 otherwise).
    pub accepts_form: bool,
    /// The response value describes a stored file (`filename`, `content_type`,
    /// `storage_key`), sent as the file's bytes with `Content-Disposition`.
    pub download: bool,
    /// The list's streamed export, when it has one.
    pub export: Option<Export>,
    /// The message of the 403 an operator gets from an admin-only route, where CONTRACT
    /// words it its own way (`Only administrators can update order status`); `None` for the
    /// guard's `Admin access required`.
    pub forbidden: Option<&'static str>,
    /// Query parameters whose unusable value CONTRACT answers with a 400 (an unknown
    /// `sort_by`, say) rather than the binder's field-level 422.
    pub bad_request_params: &'static [&'static str],
    /// The route is a file download of its export: CSV without `?format=` (a
    /// `.../export` route), `Content-Disposition: attachment`.
    pub export_by_default: bool,
    /// A list answer turned into an object keyed by this field of each element (the
    /// field itself is left out of the element): `{"12": {...}, "15": {...}}`.
    pub keyed_by: Option<&'static str>,
    /// The answer, once shaped, put under this key (`{"printers": {...}}`).
    pub wrap: Option<&'static str>,
    /// A GET whose answer may be `null` (FilaOps's "the active plan, or null") answers
    /// `200 null` instead of a 404.
    pub null_ok: bool,
}

impl Route {
    const fn new(
        method: Method,
        path: &'static str,
        operation: &'static str,
        response: &'static str,
    ) -> Route {
        Route {
            method,
            path,
            aliases: &[],
            operation,
            body: Body::None,
            response,
            status: 200,
            access: Access::User,
            omit_nulls: false,
            summary: "",
            refuses: false,
            flatten: &[],
            rate_limit: None,
            raw: None,
            headers: &[],
            accepts_form: false,
            idempotent: false,
            location: None,
            download: false,
            export: None,
            export_by_default: false,
            forbidden: None,
            bad_request_params: &[],
            keyed_by: None,
            wrap: None,
            null_ok: false,
        }
    }

    /// A GET that answers `200 null` when there is nothing (not a 404).
    pub const fn null_ok(mut self) -> Route {
        self.null_ok = true;
        self
    }

    /// Answers a list as an object keyed by `field` of each element (FilaOps's
    /// `{order_id: {...}}` maps).
    pub const fn keyed_by(mut self, field: &'static str) -> Route {
        self.keyed_by = Some(field);
        self
    }

    /// Puts the answer, once shaped, under `key` (FilaOps's `{"printers": {...}}`).
    pub const fn wrap(mut self, key: &'static str) -> Route {
        self.wrap = Some(key);
        self
    }

    /// A GET route.
    pub const fn get(path: &'static str, operation: &'static str, response: &'static str) -> Route {
        Route::new(Method::Get, path, operation, response)
    }

    /// A POST route.
    pub const fn post(
        path: &'static str,
        operation: &'static str,
        response: &'static str,
    ) -> Route {
        Route::new(Method::Post, path, operation, response)
    }

    /// A PUT route.
    pub const fn put(path: &'static str, operation: &'static str, response: &'static str) -> Route {
        Route::new(Method::Put, path, operation, response)
    }

    /// A PATCH route.
    pub const fn patch(
        path: &'static str,
        operation: &'static str,
        response: &'static str,
    ) -> Route {
        Route::new(Method::Patch, path, operation, response)
    }

    /// A DELETE route.
    pub const fn delete(
        path: &'static str,
        operation: &'static str,
        response: &'static str,
    ) -> Route {
        Route::new(Method::Delete, path, operation, response)
    }

    /// Sets the aliases.
    pub const fn aliases(mut self, aliases: &'static [&'static str]) -> Route {
        self.aliases = aliases;
        self
    }

    /// Sets the body binding.
    pub const fn body(mut self, body: Body) -> Route {
        self.body = body;
        self
    }

    /// Sets the success status.
    pub const fn status(mut self, status: u16) -> Route {
        self.status = status;
        self
    }

    /// Sets the declared access.
    pub const fn access(mut self, access: Access) -> Route {
        self.access = access;
        self
    }

    /// Leaves null fields out of the body.
    pub const fn omit_nulls(mut self) -> Route {
        self.omit_nulls = true;
        self
    }

    /// Lifts the fields of the objects at `keys` into the response object.
    pub const fn flatten(mut self, keys: &'static [&'static str]) -> Route {
        self.flatten = keys;
        self
    }

    /// Counts every request against the named rate limit before binding.
    pub const fn rate_limit(mut self, name: &'static str) -> Route {
        self.rate_limit = Some(name);
        self
    }

    /// Sends the (string) response value as-is with `content_type`.
    pub const fn raw(mut self, content_type: &'static str) -> Route {
        self.raw = Some(content_type);
        self
    }

    /// Binds request headers to variables.
    pub const fn headers(mut self, headers: &'static [(&'static str, &'static str)]) -> Route {
        self.headers = headers;
        self
    }

    /// Also reads form-encoded bodies.
    pub const fn accepts_form(mut self) -> Route {
        self.accepts_form = true;
        self
    }

    /// Honours `Idempotency-Key`: a repeat by the same user within 24 hours answers the first
    /// result and changes nothing.
    pub const fn idempotent(mut self) -> Route {
        self.idempotent = true;
        self
    }

    /// Answers a 201 with this `Location` (`{field}`s come from the response body).
    pub const fn location(mut self, template: &'static str) -> Route {
        self.location = Some(template);
        self
    }

    /// Sends the stored file the response value describes.
    pub const fn download(mut self) -> Route {
        self.download = true;
        self
    }

    /// Offers `?format=csv|ndjson`, streaming every matching row.
    pub const fn export(mut self, export: Export) -> Route {
        self.export = Some(export);
        self
    }

    /// Answers the export as a CSV file even without `?format=` (`ndjson` and `json` may
    /// still be asked for): the `.../export` routes.
    pub const fn csv_export(mut self, export: Export) -> Route {
        self.export = Some(export);
        self.export_by_default = true;
        self
    }

    /// Words the 403 an operator gets from this admin-only route as CONTRACT does.
    pub const fn forbidden_message(mut self, message: &'static str) -> Route {
        self.forbidden = Some(message);
        self
    }

    /// Answers an unusable value of these query parameters (snake_case names) with a 400
    /// naming the parameter, as CONTRACT does, instead of a 422; documented as a 400.
    pub const fn bad_request_for(mut self, params: &'static [&'static str]) -> Route {
        self.bad_request_params = params;
        self.refuses = true;
        self
    }

    /// Declares that this read answers 400 for some values (see [`Route::refuses`]).
    pub const fn refuses(mut self) -> Route {
        self.refuses = true;
        self
    }

    /// Sets the summary.
    pub const fn summary(mut self, summary: &'static str) -> Route {
        self.summary = summary;
        self
    }

    /// The canonical path and the aliases.
    pub fn all_paths(&self) -> impl Iterator<Item = &'static str> + '_ {
        std::iter::once(self.path).chain(self.aliases.iter().copied())
    }
}

/// A route and the area that declares it (the application's registry lists them all).
#[derive(Debug, Clone, Copy)]
pub struct AreaRoute {
    /// The area's name (its module), the route's OpenAPI tag.
    pub area: &'static str,
    /// The declaration.
    pub route: Route,
}
