//! Layer 1, the platform: what every business area stands on and none of them owns.
//! Configuration, logging, the database (pool, schema, forms, migrations), the one error
//! model, authentication, the HTTP middleware, the GraphQL infrastructure, the REST engine,
//! background jobs, mail, documents (PDF), CSV import and outbound HTTP. It imports no
//! business area: where it needs one (the schema's roots, the routes, job kinds), the
//! application layer hands it over at start-up.

pub mod auth;
pub mod config;
pub mod db;
pub mod documents;
pub mod email;
pub mod error;
pub mod graphql;
pub mod health;
pub mod http;
pub mod import;
pub mod jobs;
pub mod mail;
pub mod outbound;
pub mod rest;
pub mod telemetry;
