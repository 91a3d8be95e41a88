//! Customer messages (issue 34): threads of notes to and from a customer, usually about a
//! sales order, in one inbox the whole team reads (FilaOps's `/notifications`). A message
//! from the customer (their e-mail or call, recorded here) is unread until someone opens the
//! thread; the team's messages are born read and e-mailed to the order's customer when mail
//! is configured. Each message on an order joins the order's history.

pub mod graphql;
pub mod model;
pub mod rest;
pub mod rules;
