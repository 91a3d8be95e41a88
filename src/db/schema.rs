// @generated automatically by Diesel CLI.
