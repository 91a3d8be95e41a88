//! A status flow as the REST API advertises it (CONTRACT 5.2's `/status-transitions`):
//! every status with the moves it allows and whether it is terminal, or, with a current
//! status, that status's moves. One shape for every area's state machine.

use async_graphql::Json;
use serde_json::{Value, json};

/// `{statuses, transitions: {s: {allowed_transitions, is_terminal}}, terminal_statuses}`, or
/// `{current_status, allowed_transitions, is_terminal}` when `current` is given. `allowed`
/// names the moves from a status (same to same is never listed).
pub fn status_flow<S, A>(all: &[S], allowed: impl Fn(S) -> A, current: Option<S>) -> Json<Value>
where
    S: Copy + std::fmt::Display,
    A: IntoIterator<Item = S>,
{
    let moves = |s: S| -> Vec<String> { allowed(s).into_iter().map(|m| m.to_string()).collect() };
    if let Some(s) = current {
        let to = moves(s);
        let terminal = to.is_empty();
        return Json(json!({
            "current_status": s.to_string(),
            "allowed_transitions": to,
            "is_terminal": terminal,
        }));
    }
    let mut transitions = serde_json::Map::new();
    let mut terminal = Vec::new();
    for s in all {
        let to = moves(*s);
        if to.is_empty() {
            terminal.push(s.to_string());
        }
        let is_terminal = to.is_empty();
        transitions.insert(
            s.to_string(),
            json!({"allowed_transitions": to, "is_terminal": is_terminal}),
        );
    }
    Json(json!({
        "statuses": all.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "transitions": transitions,
        "terminal_statuses": terminal,
    }))
}

/// A state machine's moves as its refusals word them: `['a', 'b']`, or `none (terminal
/// state)` when there are none.
pub fn allowed_list<S: std::fmt::Display>(allowed: &[S]) -> String {
    if allowed.is_empty() {
        return "none (terminal state)".to_string();
    }
    let quoted: Vec<String> = allowed.iter().map(|s| format!("'{s}'")).collect();
    format!("[{}]", quoted.join(", "))
}
