//! REST routes of identity (CONTRACT 1, 2, 3, 5.15): declarations only.

use crate::platform::auth::Access::{Admin, Public, User};
use crate::platform::rest::{Body, Route};

use crate::stored_op;

/// The routes.
pub const ROUTES: &[Route] = &[
    Route::get(
        "/setup/status",
        stored_op!("setup_status.graphql"),
        "setupStatus",
    )
    .access(Public)
    .summary("Whether the first-run wizard should run"),
    Route::post(
        "/setup/initial-admin",
        stored_op!("setup_initial_admin.graphql"),
        "setupInitialAdmin",
    )
    .body(Body::Input("input"))
    .rate_limit("initial_admin")
    .access(Public)
    .omit_nulls()
    .summary("Create the first admin and sign in (3 a minute per client)"),
    Route::post("/auth/login", stored_op!("login.graphql", "user"), "login")
        .body(Body::Fields)
        .accepts_form()
        .access(Public)
        .omit_nulls()
        .summary("Sign in (form-encoded or JSON `username` and `password`)"),
    Route::post(
        "/auth/refresh",
        stored_op!("refresh.graphql"),
        "refreshSession",
    )
    .body(Body::Fields)
    .rate_limit("refresh")
    .access(Public)
    .omit_nulls()
    .summary("Rotate the refresh token (cookie first, else the body)"),
    Route::post("/auth/logout", stored_op!("logout.graphql"), "logout")
        .body(Body::Fields)
        .access(Public)
        .summary("End the session and clear the cookies"),
    Route::get("/auth/me", stored_op!("me.graphql", "user"), "me")
        .access(User)
        .summary("The signed-in user"),
    Route::post(
        "/auth/password-reset/request",
        stored_op!("reset_request.graphql"),
        "passwordResetRequest",
    )
    .body(Body::Fields)
    .rate_limit("reset_request")
    .access(Public)
    .summary("Ask for a password reset (same answer for every address)"),
    Route::get(
        "/auth/password-reset/approve/{approval_token}",
        stored_op!("reset_approve.graphql"),
        "passwordResetApprove",
    )
    .rate_limit("reset_review")
    .access(Public)
    .summary("Approve a reset (link from the admin's e-mail)"),
    Route::post(
        "/auth/password-reset/approve",
        stored_op!("reset_approve.graphql"),
        "passwordResetApprove",
    )
    .body(Body::Fields)
    .rate_limit("reset_review")
    .access(Public)
    .summary("Approve a reset"),
    Route::get(
        "/auth/password-reset/deny/{approval_token}",
        stored_op!("reset_deny.graphql"),
        "passwordResetDeny",
    )
    .rate_limit("reset_review")
    .access(Public)
    .summary("Deny a reset (link from the admin's e-mail; `?reason=`)"),
    Route::post(
        "/auth/password-reset/deny",
        stored_op!("reset_deny.graphql"),
        "passwordResetDeny",
    )
    .body(Body::Fields)
    .rate_limit("reset_review")
    .access(Public)
    .summary("Deny a reset"),
    Route::get(
        "/auth/password-reset/status/{token}",
        stored_op!("reset_status.graphql"),
        "passwordResetStatus",
    )
    .access(Public)
    .summary("What the holder of a reset link may do"),
    Route::post(
        "/auth/password-reset/complete",
        stored_op!("reset_complete.graphql"),
        "passwordResetComplete",
    )
    .body(Body::Fields)
    .access(Public)
    .summary("Set a new password with an approved link"),
    Route::get(
        "/admin/users/",
        stored_op!("team_list.graphql", "user"),
        "teamMembers.nodes",
    )
    .access(Admin)
    .summary("Team members (`skip`, `limit`, `account_type`, `include_inactive`, `search`)"),
    Route::get(
        "/admin/users/stats/summary",
        stored_op!("team_stats.graphql"),
        "teamStats",
    )
    .access(Admin)
    .summary("Team head counts"),
    Route::get(
        "/admin/users/{id}",
        stored_op!("team_get.graphql", "user"),
        "teamMember",
    )
    .access(Admin)
    .summary("One team member"),
    Route::post(
        "/admin/users/",
        stored_op!("team_create.graphql", "user"),
        "teamMemberCreate.user",
    )
    .body(Body::Input("input"))
    .status(201)
    .access(Admin)
    .summary("Create a team member"),
    Route::patch(
        "/admin/users/{id}",
        stored_op!("team_update.graphql", "user"),
        "teamMemberUpdate.user",
    )
    .body(Body::Input("input"))
    .access(Admin)
    .summary("Change a team member"),
    Route::delete(
        "/admin/users/{id}",
        stored_op!("team_deactivate.graphql", "user"),
        "teamMemberDeactivate.user",
    )
    .access(Admin)
    .summary("Deactivate a team member"),
    Route::post(
        "/admin/users/{id}/reactivate",
        stored_op!("team_reactivate.graphql", "user"),
        "teamMemberReactivate.user",
    )
    .access(Admin)
    .summary("Reactivate a team member"),
    Route::post(
        "/admin/users/{id}/reset-password",
        stored_op!("team_reset_password.graphql"),
        "teamMemberResetPassword",
    )
    .body(Body::Fields)
    .access(Admin)
    .summary("Set a team member's password"),
    Route::get(
        "/admin/password-reset-requests",
        stored_op!("reset_pending.graphql"),
        "pendingPasswordResets",
    )
    .access(Admin)
    .summary("Password reset requests waiting for an admin (mail not configured)"),
    Route::post(
        "/admin/password-reset-requests/{id}/approve",
        stored_op!("reset_review_approve.graphql"),
        "passwordResetRequestApprove",
    )
    .access(Admin)
    .summary("Approve a waiting reset; without mail the answer carries the link to hand over"),
    Route::post(
        "/admin/password-reset-requests/{id}/deny",
        stored_op!("reset_review_deny.graphql"),
        "passwordResetRequestDeny",
    )
    .body(Body::Fields)
    .access(Admin)
    .summary("Deny a waiting reset"),
];
