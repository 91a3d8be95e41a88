//! Finite-capacity shop scheduler for the print farm.
//!
//! Everything here is pure computation over plain values: the caller loads
//! lanes (machines), their calendars and existing bookings, and the jobs to
//! place, and gets back a [`Plan`] or a list of [`Refusal`]s. Keeping the
//! engine free of storage and I/O lets the same rules serve the automatic
//! scheduler, a manual drag-and-drop check and the property tests.
//!
//! Time is half-open everywhere (`[start, end)`), so a booking that ends at
//! 10:00 and one that starts at 10:00 do not clash.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use chrono::{DateTime, Datelike, NaiveDate, TimeDelta, Utc};

/// A point in time; the engine works in UTC only so calendars never shift
/// with daylight-saving changes.
pub type Instant = DateTime<Utc>;

/// Minutes in a day: the exclusive upper bound of a calendar period.
const DAY_MINUTES: u16 = 1440;
/// The periods of a day with no hours set.
const FULL_DAY: &[(u16, u16)] = &[(0, DAY_MINUTES)];
/// How far [`Calendar::stretch_at_or_after`] looks back for the start of a
/// stretch; bounded so an always-open calendar still answers quickly.
const LOOKBACK_DAYS: u32 = 7;
/// Once past the last exception the calendar repeats weekly, so a week of
/// identical evidence (all closed, or all open) decides the rest.
const WEEK_DAYS: u32 = 7;
/// Reason given to every operation after one that could not be placed.
const PREVIOUS_FAILED: &str = "Its previous operation could not be scheduled";

/// A machine lane: a printer or a non-printer resource (wash station, UV
/// cure). Separate id spaces, hence the two variants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LaneKey {
    /// A printer, by printer id.
    Printer(i64),
    /// A non-printer resource, by resource id.
    Resource(i64),
}

/// Half-open time span `[start, end)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    /// First instant inside the span.
    pub start: Instant,
    /// First instant after the span.
    pub end: Instant,
}

impl Span {
    /// A span, or `None` unless `start < end` (empty spans would make every
    /// overlap and fit test ambiguous).
    pub fn new(start: Instant, end: Instant) -> Option<Span> {
        (start < end).then_some(Span { start, end })
    }

    /// Whether the two spans share any instant; touching spans do not.
    pub fn overlaps(&self, other: &Span) -> bool {
        self.start < other.end && other.start < self.end
    }

    /// Length in whole minutes (partial minutes are dropped).
    pub fn minutes(&self) -> i64 {
        (self.end - self.start).num_minutes()
    }

    /// The part of this span inside `window`, if any.
    pub fn clip(&self, window: &Span) -> Option<Span> {
        Span::new(self.start.max(window.start), self.end.min(window.end))
    }
}

/// Working hours of a work center, in UTC. Periods are minutes from
/// midnight: `(open, close)` with `0 <= open < close <= 1440`.
#[derive(Clone, Debug, Default)]
pub struct Calendar {
    /// Open periods per weekday, index 0 = Monday .. 6 = Sunday. `None` =
    /// always open (no hours set).
    pub weekly: Option<[Vec<(u16, u16)>; 7]>,
    /// Days whose hours differ from the week: an empty list = closed all
    /// day. Applies even when `weekly` is None.
    pub exceptions: BTreeMap<NaiveDate, Vec<(u16, u16)>>,
}

impl Calendar {
    /// A calendar with no hours set: open around the clock.
    pub fn always_open() -> Calendar {
        Calendar::default()
    }

    /// The open periods of one day (exception first, else the weekday's,
    /// else whole day when weekly is None), sorted and merged. Invalid
    /// periods (`open >= close`) are dropped and `close` is capped at 1440,
    /// so bad data narrows the hours rather than failing.
    pub fn periods_on(&self, day: NaiveDate) -> Vec<(u16, u16)> {
        if let Some(periods) = self.exceptions.get(&day) {
            return normalize(periods);
        }
        match &self.weekly {
            Some(week) => week
                .get(weekday_index(day))
                .map(|p| normalize(p))
                .unwrap_or_default(),
            None => FULL_DAY.to_vec(),
        }
    }

    /// The maximal contiguous open stretch containing `at`, or the first one
    /// starting after `at`, looking at most `limit` ahead (the end is capped
    /// at `limit`). Periods that touch across midnight (…-1440 then 0-…)
    /// merge into one stretch, so an always-open calendar is one stretch up
    /// to `limit`. When `at` is inside a stretch its start is looked for at
    /// most seven days back (an always-open calendar has no real start).
    /// Returns None if nothing opens before `limit`.
    pub fn stretch_at_or_after(&self, at: Instant, limit: Instant) -> Option<Span> {
        let table = DayTable::new(self);
        let forward = table.next_stretch(at, limit)?;
        if forward.start > at {
            return Some(forward);
        }
        let start = table.stretch_start(at).unwrap_or(forward.start);
        Some(Span {
            start: start.min(forward.start),
            end: forward.end,
        })
    }

    /// Whether the whole span lies inside one contiguous open stretch.
    pub fn contains(&self, span: Span) -> bool {
        DayTable::new(self)
            .next_stretch(span.start, span.end)
            .is_some_and(|st| st.start <= span.start && st.end >= span.end)
    }
}

pub use crate::operations::printers::compat::{MachineCaps, MaterialNeeds, compatible};

/// What holds a stretch of time on a lane.
#[derive(Clone, Debug, PartialEq)]
pub enum BusyKind {
    /// A scheduled operation; its setup key lets a follower skip setup.
    Operation {
        /// The booked operation.
        op_id: i64,
        /// The production order it belongs to.
        order_id: i64,
        /// Operations with the same key share a setup (same material, plate…).
        setup_key: Option<String>,
    },
    /// Planned maintenance; never moved or excluded by the engine.
    Maintenance {
        /// The maintenance window record.
        window_id: i64,
    },
}

/// Time already taken on a lane.
#[derive(Clone, Debug, PartialEq)]
pub struct Busy {
    /// When the lane is taken.
    pub span: Span,
    /// By what.
    pub kind: BusyKind,
}

/// One machine as the scheduler sees it.
#[derive(Clone, Debug)]
pub struct Lane {
    /// Which machine.
    pub key: LaneKey,
    /// Human-readable machine code, for messages.
    pub code: String,
    /// The work centers whose operations this machine can run.
    pub work_center_ids: Vec<i64>,
    /// Working hours; bookings must fit inside one open stretch.
    pub calendar: Calendar,
    /// What the machine can print.
    pub caps: MachineCaps,
    /// Existing bookings and maintenance windows (any order; the engine
    /// sorts its own copy).
    pub busy: Vec<Busy>,
}

/// Why a booking is refused.
#[derive(Clone, Debug, PartialEq)]
pub enum Refusal {
    /// Clashes with another operation on the lane.
    Overlap {
        /// The operation in the way.
        op_id: i64,
        /// Its order.
        order_id: i64,
        /// When it runs.
        span: Span,
    },
    /// Clashes with a maintenance window.
    Maintenance {
        /// The window in the way.
        window_id: i64,
        /// When it is.
        span: Span,
    },
    /// Not inside one open stretch of the lane's calendar.
    OutsideHours,
    /// The lane does not serve the operation's work center.
    WrongWorkCenter,
    /// The material cannot run on this machine; the text says why.
    Incompatible(String),
    /// Starts before the previous operation of the order ends.
    BeforePredecessor {
        /// The earliest allowed start.
        earliest: Instant,
    },
}

impl Refusal {
    /// Clear English for a user, e.g. "Overlaps operation 12 of order 3
    /// (2026-12-01 08:00–10:00 UTC)".
    pub fn message(&self) -> String {
        match self {
            Refusal::Overlap {
                op_id,
                order_id,
                span,
            } => format!(
                "Overlaps operation {op_id} of order {order_id} ({})",
                format_span(span)
            ),
            Refusal::Maintenance { window_id, span } => format!(
                "Overlaps maintenance window {window_id} ({})",
                format_span(span)
            ),
            Refusal::OutsideHours => "Falls outside the machine's working hours".to_string(),
            Refusal::WrongWorkCenter => {
                "This machine is not in the operation's work center".to_string()
            }
            Refusal::Incompatible(reason) => capitalize(reason),
            Refusal::BeforePredecessor { earliest } => format!(
                "Starts before the previous operation ends (earliest start {})",
                format_instant(earliest)
            ),
        }
    }
}

/// Checks one proposed booking on a lane: work center served, material
/// compatible, inside working hours, no overlap with busy (ignoring
/// `exclude_op`, the operation being moved), not before `not_before`
/// (predecessor end). Returns all refusals, not just the first, so the user
/// sees everything to fix at once.
pub fn check_booking(
    lane: &Lane,
    span: Span,
    work_center_id: i64,
    needs: &MaterialNeeds,
    not_before: Option<Instant>,
    exclude_op: Option<i64>,
) -> Vec<Refusal> {
    let mut refusals = Vec::new();
    if !lane.work_center_ids.contains(&work_center_id) {
        refusals.push(Refusal::WrongWorkCenter);
    }
    if let Err(reason) = compatible(&lane.caps, needs) {
        refusals.push(Refusal::Incompatible(reason));
    }
    if !lane.calendar.contains(span) {
        refusals.push(Refusal::OutsideHours);
    }
    if let Some(earliest) = not_before.filter(|nb| span.start < *nb) {
        refusals.push(Refusal::BeforePredecessor { earliest });
    }
    let mut clashes: Vec<&Busy> = lane
        .busy
        .iter()
        .filter(|b| b.span.overlaps(&span) && !is_excluded(b, exclude_op))
        .collect();
    clashes.sort_by_key(|b| (b.span.start, b.span.end));
    refusals.extend(clashes.into_iter().map(|b| match &b.kind {
        BusyKind::Operation {
            op_id, order_id, ..
        } => Refusal::Overlap {
            op_id: *op_id,
            order_id: *order_id,
            span: b.span,
        },
        BusyKind::Maintenance { window_id } => Refusal::Maintenance {
            window_id: *window_id,
            span: b.span,
        },
    }));
    refusals
}

/// The earliest span of `minutes` starting at or after `after`, inside one
/// open stretch, not overlapping busy (ignoring `exclude_op`), ending no
/// later than `limit`. `minutes` below 1 is treated as 1 (an empty booking
/// is meaningless). None if nothing fits.
pub fn earliest_fit(
    lane: &Lane,
    after: Instant,
    minutes: i64,
    limit: Instant,
    exclude_op: Option<i64>,
) -> Option<Span> {
    LaneState::new(lane, exclude_op)
        .find_fit(after, limit, limit, &Need::Fixed(minutes))
        .map(|fit| fit.span)
}

/// Free gaps inside `window` that are open and not busy, each at least
/// `min_minutes` long, in order. Gaps are maximal: a gap ends where the
/// lane closes or something is booked.
pub fn free_slots(lane: &Lane, window: Span, min_minutes: i64) -> Vec<Span> {
    let state = LaneState::new(lane, None);
    let min_len = TimeDelta::try_minutes(min_minutes.max(0)).unwrap_or(TimeDelta::MAX);
    let mut slots = Vec::new();
    let mut at = window.start;
    while let Some(stretch) = state.table.next_stretch(at, window.end) {
        slots.extend(state.gaps(stretch).filter(|g| g.end - g.start >= min_len));
        at = stretch.end;
    }
    slots
}

/// Share of `window` (0.0..=100.0, one decimal) taken by Operation busies,
/// overlaps counted once, clipped to the window. Maintenance is not
/// utilisation, and closed hours still count in the window, so this is
/// the share of wall-clock time.
pub fn utilisation_percent(lane: &Lane, window: Span) -> f64 {
    let total = (window.end - window.start).num_seconds();
    if total <= 0 {
        return 0.0;
    }
    let clipped: Vec<(Instant, Instant)> = lane
        .busy
        .iter()
        .filter(|b| matches!(b.kind, BusyKind::Operation { .. }))
        .filter_map(|b| b.span.clip(&window))
        .map(|s| (s.start, s.end))
        .collect();
    let taken: i64 = merge_intervals(clipped)
        .iter()
        .map(|(s, e)| (*e - *s).num_seconds())
        .sum();
    // Seconds in a window are far below 2^53, so the float conversion is exact.
    let share = taken as f64 / total as f64 * 100.0;
    ((share * 10.0).round() / 10.0).clamp(0.0, 100.0)
}

/// One operation to place.
#[derive(Clone, Debug)]
pub struct JobOp {
    /// The operation record.
    pub op_id: i64,
    /// Routing step number; operations run in ascending sequence.
    pub sequence: i32,
    /// The work center that must run it.
    pub work_center_id: i64,
    /// Changeover minutes, skipped after an operation with the same setup key.
    pub setup_minutes: i64,
    /// Processing minutes.
    pub run_minutes: i64,
    /// What the material needs from the machine.
    pub needs: MaterialNeeds,
    /// Operations with the same key share a setup.
    pub setup_key: Option<String>,
}

/// One production order's unscheduled operations.
#[derive(Clone, Debug)]
pub struct Job {
    /// The production order.
    pub order_id: i64,
    /// Order code, for messages.
    pub code: String,
    /// 1 = most urgent .. 5.
    pub priority: i32,
    /// When the order is due, if ever.
    pub due: Option<Instant>,
    /// Operations, sorted by sequence.
    pub ops: Vec<JobOp>,
    /// Earliest start of the first op: e.g. end of already-scheduled
    /// predecessors.
    pub not_before: Instant,
}

/// One placed operation.
#[derive(Clone, Debug, PartialEq)]
pub struct Booking {
    /// The operation placed.
    pub op_id: i64,
    /// Its order.
    pub order_id: i64,
    /// The machine it goes on.
    pub lane: LaneKey,
    /// When it runs, setup included unless saved.
    pub span: Span,
    /// Whether setup was skipped because the lane's previous operation had
    /// the same setup key.
    pub setup_saved: bool,
}

/// How one order fared in an auto-schedule run.
#[derive(Clone, Debug, PartialEq)]
pub struct OrderOutcome {
    /// The order.
    pub order_id: i64,
    /// Its code.
    pub code: String,
    /// End of the order's last booking; None if nothing was placed.
    pub planned_finish: Option<Instant>,
    /// When it is due.
    pub due: Option<Instant>,
    /// Some operation unplaced, or finishing after `due`.
    pub late: bool,
    /// `(op_id, reason)` for each op not placed.
    pub unplaced: Vec<(i64, String)>,
}

/// The result of an auto-schedule run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Plan {
    /// New bookings, in the order they were made.
    pub bookings: Vec<Booking>,
    /// One outcome per job, in scheduling (priority) order.
    pub outcomes: Vec<OrderOutcome>,
}

/// Whole-shop (or one order) auto-schedule: a greedy finite-capacity
/// heuristic. Jobs go in order of priority (1 first), then due (None last),
/// then order_id; each job's ops in sequence, each starting no earlier than
/// max(now, job.not_before, previous op's end). Every op goes on the
/// serving, compatible lane where its earliest fit ends first (tie: smaller
/// [`LaneKey`]), taking bookings made earlier in the run into account.
/// Setup is skipped when the lane's previous operation has the same setup
/// key, and a slot is never taken just before a booking of this run that
/// skipped its setup unless it shares that key (which would otherwise
/// silently invalidate the skip). Nothing ends after `horizon_end`.
pub fn auto_schedule(lanes: &[Lane], jobs: &[Job], now: Instant, horizon_end: Instant) -> Plan {
    let mut slots: Vec<LaneSlot<'_>> = lanes
        .iter()
        .map(|lane| LaneSlot {
            lane,
            state: LaneState::new(lane, None),
        })
        .collect();
    // Stable sort: equal keys keep their input position, so ties are fair.
    slots.sort_by_key(|s| s.lane.key);
    let mut order: Vec<&Job> = jobs.iter().collect();
    order.sort_by_key(|job| job_rank(job));
    let mut plan = Plan::default();
    for job in order {
        let outcome = schedule_job(&mut slots, job, now, horizon_end, &mut plan.bookings);
        plan.outcomes.push(outcome);
    }
    plan
}

/// Sort key for jobs: priority, then due (None last), then order id.
fn job_rank(job: &Job) -> (i32, bool, Option<Instant>, i64) {
    (job.priority, job.due.is_none(), job.due, job.order_id)
}

/// A lane plus its working copy of busy time for one run.
struct LaneSlot<'a> {
    lane: &'a Lane,
    state: LaneState,
}

/// Places one job's operations in sequence, recording bookings.
fn schedule_job(
    slots: &mut [LaneSlot<'_>],
    job: &Job,
    now: Instant,
    horizon_end: Instant,
    bookings: &mut Vec<Booking>,
) -> OrderOutcome {
    let mut ops: Vec<&JobOp> = job.ops.iter().collect();
    ops.sort_by_key(|op| op.sequence);
    let mut earliest = Some(now.max(job.not_before));
    let mut unplaced = Vec::new();
    let mut planned_finish = None;
    for op in ops {
        let Some(start_from) = earliest else {
            unplaced.push((op.op_id, PREVIOUS_FAILED.to_string()));
            continue;
        };
        match place_op(slots, op, start_from, horizon_end) {
            Ok((index, fit)) => {
                if let Some(slot) = slots.get_mut(index) {
                    slot.state
                        .book(fit.span, op.setup_key.clone(), fit.setup_saved);
                    bookings.push(Booking {
                        op_id: op.op_id,
                        order_id: job.order_id,
                        lane: slot.lane.key,
                        span: fit.span,
                        setup_saved: fit.setup_saved,
                    });
                }
                earliest = Some(fit.span.end);
                planned_finish = Some(fit.span.end);
            }
            Err(reason) => {
                unplaced.push((op.op_id, reason));
                earliest = None;
            }
        }
    }
    let finished_late = matches!((job.due, planned_finish), (Some(due), Some(f)) if f > due);
    OrderOutcome {
        order_id: job.order_id,
        code: job.code.clone(),
        planned_finish,
        due: job.due,
        late: !unplaced.is_empty() || finished_late,
        unplaced,
    }
}

/// Chooses the lane and slot for one operation, or explains why none works.
fn place_op(
    slots: &[LaneSlot<'_>],
    op: &JobOp,
    start_from: Instant,
    horizon_end: Instant,
) -> Result<(usize, Fit), String> {
    let need = Need::Op {
        setup: op.setup_minutes.max(0),
        run: op.run_minutes.max(0),
        key: op.setup_key.as_deref(),
    };
    let mut served = false;
    let mut incompatibility: Option<String> = None;
    let mut any_compatible = false;
    let mut best: Option<(usize, Fit)> = None;
    for (index, slot) in slots.iter().enumerate() {
        if !slot.lane.work_center_ids.contains(&op.work_center_id) {
            continue;
        }
        served = true;
        if let Err(reason) = compatible(&slot.lane.caps, &op.needs) {
            incompatibility.get_or_insert(reason);
            continue;
        }
        any_compatible = true;
        // A slot starting at or after the best end so far cannot end first.
        let give_up = best.as_ref().map_or(horizon_end, |(_, f)| f.span.end);
        let Some(fit) = slot.state.find_fit(start_from, horizon_end, give_up, &need) else {
            continue;
        };
        if best.as_ref().is_none_or(|(_, b)| fit.span.end < b.span.end) {
            best = Some((index, fit));
        }
    }
    let wc = op.work_center_id;
    match (best, served, any_compatible, incompatibility) {
        (Some(found), _, _, _) => Ok(found),
        (None, false, _, _) => Err(format!("No machine in work center {wc}")),
        (None, true, false, Some(reason)) => Err(format!(
            "No machine in work center {wc} can run it: {reason}"
        )),
        _ => Err(format!(
            "No free time on a compatible machine before {}",
            format_limit(&horizon_end)
        )),
    }
}

/// How long a slot must be.
enum Need<'a> {
    /// A fixed number of minutes (public `earliest_fit`).
    Fixed(i64),
    /// An operation whose setup may be skipped depending on its neighbour.
    Op {
        setup: i64,
        run: i64,
        key: Option<&'a str>,
    },
}

/// A slot found on a lane.
struct Fit {
    span: Span,
    setup_saved: bool,
}

/// An operation on a lane, as far as setup saving is concerned.
#[derive(Clone)]
struct OpEntry {
    start: Instant,
    end: Instant,
    setup_key: Option<String>,
    /// Booked in this run with its setup skipped: whatever goes right
    /// before it must keep the same setup key.
    saved_in_run: bool,
}

/// Searchable view of one lane: calendar plus merged busy time.
struct LaneState {
    table: DayTable,
    /// Union of all busy time: sorted, disjoint, non-touching.
    occupied: Vec<(Instant, Instant)>,
    /// Operations sorted by (start, end): finds the next operation.
    by_start: Vec<OpEntry>,
    /// Operations sorted by (end, start): finds the previous operation.
    by_end: Vec<OpEntry>,
}

/// Result of scanning one open stretch.
enum Scan {
    Found(Fit),
    NotHere,
    GiveUp,
}

impl LaneState {
    /// Builds the lane's search structures, leaving out `exclude_op`.
    fn new(lane: &Lane, exclude_op: Option<i64>) -> LaneState {
        let mut occupied = Vec::with_capacity(lane.busy.len());
        let mut ops = Vec::new();
        for busy in &lane.busy {
            if busy.span.start >= busy.span.end || is_excluded(busy, exclude_op) {
                continue;
            }
            if let BusyKind::Operation { setup_key, .. } = &busy.kind {
                ops.push(OpEntry {
                    start: busy.span.start,
                    end: busy.span.end,
                    setup_key: setup_key.clone(),
                    saved_in_run: false,
                });
            }
            occupied.push((busy.span.start, busy.span.end));
        }
        let mut by_start = ops.clone();
        by_start.sort_by_key(|o| (o.start, o.end));
        let mut by_end = ops;
        by_end.sort_by_key(|o| (o.end, o.start));
        LaneState {
            table: DayTable::new(&lane.calendar),
            occupied: merge_intervals(occupied),
            by_start,
            by_end,
        }
    }

    /// Records a new booking so later searches see it.
    fn book(&mut self, span: Span, setup_key: Option<String>, saved: bool) {
        // Intervals touching or overlapping the span sit in `lo..hi`; lo <= hi
        // because an interval ending before `span.start` starts before `span.end`.
        let lo = self.occupied.partition_point(|o| o.1 < span.start);
        let hi = self.occupied.partition_point(|o| o.0 <= span.end).max(lo);
        let touching = self.occupied.get(lo..hi).unwrap_or_default();
        let start = touching.first().map_or(span.start, |f| f.0.min(span.start));
        let end = touching.last().map_or(span.end, |l| l.1.max(span.end));
        self.occupied.splice(lo..hi, [(start, end)]);
        let entry = OpEntry {
            start: span.start,
            end: span.end,
            setup_key,
            saved_in_run: saved,
        };
        let at = self
            .by_start
            .partition_point(|o| (o.start, o.end) <= (entry.start, entry.end));
        self.by_start.insert(at, entry.clone());
        let at = self
            .by_end
            .partition_point(|o| (o.end, o.start) <= (entry.end, entry.start));
        self.by_end.insert(at, entry);
    }

    /// Earliest-starting slot at or after `after`, ending by `limit`;
    /// stops early (None) once candidates start at or after `give_up`.
    fn find_fit(
        &self,
        after: Instant,
        limit: Instant,
        give_up: Instant,
        need: &Need<'_>,
    ) -> Option<Fit> {
        let mut at = after;
        loop {
            let stretch = self.table.next_stretch(at, limit)?;
            match self.scan_stretch(stretch, give_up, need) {
                Scan::Found(fit) => return Some(fit),
                Scan::GiveUp => return None,
                Scan::NotHere => at = stretch.end,
            }
        }
    }

    /// Looks for a fit in the free gaps of one open stretch.
    fn scan_stretch(&self, stretch: Span, give_up: Instant, need: &Need<'_>) -> Scan {
        for gap in self.gaps(stretch) {
            if gap.start >= give_up {
                return Scan::GiveUp;
            }
            if let Some(fit) = self.fit_in_gap(gap, need) {
                return Scan::Found(fit);
            }
        }
        Scan::NotHere
    }

    /// A slot at the very start of `gap`, if the needed length fits. The
    /// neighbouring operations are the same for every start in a free gap,
    /// so the duration is decided once per gap.
    fn fit_in_gap(&self, gap: Span, need: &Need<'_>) -> Option<Fit> {
        let (minutes, setup_saved) = match need {
            Need::Fixed(m) => (*m, false),
            Need::Op { setup, run, key } => {
                if let Some(next) = self.next_op(gap.start)
                    && next.saved_in_run
                    && next.setup_key.as_deref() != *key
                {
                    return None;
                }
                let saved = key.is_some()
                    && self
                        .prev_op(gap.start)
                        .is_some_and(|p| p.setup_key.as_deref() == *key);
                let minutes = if saved {
                    *run
                } else {
                    setup.saturating_add(*run)
                };
                (minutes, saved)
            }
        };
        let end = add_minutes(gap.start, minutes.max(1))?;
        (end <= gap.end).then_some(Fit {
            span: Span {
                start: gap.start,
                end,
            },
            setup_saved,
        })
    }

    /// The operation with the latest end at or before `at`.
    fn prev_op(&self, at: Instant) -> Option<&OpEntry> {
        let count = self.by_end.partition_point(|o| o.end <= at);
        count.checked_sub(1).and_then(|i| self.by_end.get(i))
    }

    /// The first operation starting at or after `at`.
    fn next_op(&self, at: Instant) -> Option<&OpEntry> {
        let index = self.by_start.partition_point(|o| o.start < at);
        self.by_start.get(index)
    }

    /// The free (unoccupied) gaps of one open stretch, in order. Starts
    /// with a binary search so a long history costs nothing.
    fn gaps(&self, stretch: Span) -> impl Iterator<Item = Span> + '_ {
        let mut cursor = stretch.start;
        let mut index = self.occupied.partition_point(|o| o.1 <= cursor);
        std::iter::from_fn(move || {
            while let Some(&(start, end)) = self.occupied.get(index) {
                if start > cursor {
                    break;
                }
                cursor = cursor.max(end);
                index += 1;
            }
            if cursor >= stretch.end {
                return None;
            }
            let end = self
                .occupied
                .get(index)
                .map_or(stretch.end, |o| o.0.min(stretch.end));
            let gap = Span { start: cursor, end };
            cursor = end;
            Some(gap)
        })
    }
}

/// A calendar with every day's periods normalised once, so searches walk
/// days without allocating.
struct DayTable {
    weekly: Option<[Vec<(u16, u16)>; 7]>,
    exceptions: BTreeMap<NaiveDate, Vec<(u16, u16)>>,
    last_exception: Option<NaiveDate>,
}

impl DayTable {
    fn new(calendar: &Calendar) -> DayTable {
        DayTable {
            weekly: calendar
                .weekly
                .as_ref()
                .map(|week| week.each_ref().map(|p| normalize(p))),
            exceptions: calendar
                .exceptions
                .iter()
                .map(|(day, p)| (*day, normalize(p)))
                .collect(),
            last_exception: calendar.exceptions.keys().next_back().copied(),
        }
    }

    /// Normalised open periods of one day.
    fn day(&self, day: NaiveDate) -> &[(u16, u16)] {
        if let Some(periods) = self.exceptions.get(&day) {
            return periods;
        }
        match &self.weekly {
            Some(week) => week.get(weekday_index(day)).map_or(&[], |p| p.as_slice()),
            None => FULL_DAY,
        }
    }

    /// Whether `day` follows the plain weekly pattern from here on.
    fn past_exceptions(&self, day: NaiveDate) -> bool {
        self.last_exception.is_none_or(|last| day > last)
    }

    /// The open stretch containing `at` (starting at `at`) or the first
    /// after it, with its end capped at `limit`.
    fn next_stretch(&self, at: Instant, limit: Instant) -> Option<Span> {
        if at >= limit {
            return None;
        }
        let mut day = at.date_naive();
        let mut closed_days = 0;
        loop {
            if day_start(day)? >= limit {
                return None;
            }
            for &(open, close) in self.day(day) {
                if at_minute(day, close)? <= at {
                    continue;
                }
                let start = at.max(at_minute(day, open)?);
                let end = if close == DAY_MINUTES {
                    self.end_after_midnight(day, limit)?
                } else {
                    at_minute(day, close)?
                };
                return Span::new(start, end.min(limit));
            }
            let idle = self.day(day).is_empty() && self.past_exceptions(day);
            closed_days = if idle { closed_days + 1 } else { 0 };
            if closed_days >= WEEK_DAYS {
                // A whole week closed with no exceptions ahead: never opens.
                return None;
            }
            day = day.succ_opt()?;
        }
    }

    /// End of a stretch that is open at the end of `day`: follows days that
    /// open at midnight.
    fn end_after_midnight(&self, day: NaiveDate, limit: Instant) -> Option<Instant> {
        let mut day = day;
        let mut full_days = 0;
        loop {
            let next = day.succ_opt()?;
            let midnight = day_start(next)?;
            if midnight >= limit {
                return Some(midnight);
            }
            match self.day(next).first() {
                Some(&(0, close)) if close < DAY_MINUTES => return at_minute(next, close),
                Some(&(0, _)) => {
                    full_days = if self.past_exceptions(next) {
                        full_days + 1
                    } else {
                        0
                    };
                    if full_days >= WEEK_DAYS {
                        // Every weekday is open all day: open until the limit.
                        return Some(limit);
                    }
                    day = next;
                }
                _ => return Some(midnight),
            }
        }
    }

    /// Start of the open stretch containing `at`, looking back at most
    /// [`LOOKBACK_DAYS`]. None if `at` is not open.
    fn stretch_start(&self, at: Instant) -> Option<Instant> {
        let mut day = at.date_naive();
        let mut open = None;
        for &(o, c) in self.day(day) {
            if at_minute(day, o)? <= at && at < at_minute(day, c)? {
                open = Some(o);
            }
        }
        let mut open = open?;
        for _ in 0..LOOKBACK_DAYS {
            if open != 0 {
                break;
            }
            let Some(prev) = day.pred_opt() else { break };
            match self.day(prev).last() {
                Some(&(o, DAY_MINUTES)) => {
                    day = prev;
                    open = o;
                }
                _ => break,
            }
        }
        at_minute(day, open)
    }
}

/// Drops invalid periods, caps them at midnight, sorts and merges periods
/// that overlap or touch.
fn normalize(periods: &[(u16, u16)]) -> Vec<(u16, u16)> {
    let mut valid: Vec<(u16, u16)> = periods
        .iter()
        .map(|&(open, close)| (open, close.min(DAY_MINUTES)))
        .filter(|&(open, close)| open < close)
        .collect();
    valid.sort_unstable();
    let mut merged: Vec<(u16, u16)> = Vec::with_capacity(valid.len());
    for (open, close) in valid {
        match merged.last_mut() {
            Some(last) if open <= last.1 => last.1 = last.1.max(close),
            _ => merged.push((open, close)),
        }
    }
    merged
}

/// Sorts and merges overlapping or touching intervals.
fn merge_intervals(mut intervals: Vec<(Instant, Instant)>) -> Vec<(Instant, Instant)> {
    intervals.sort_unstable();
    let mut merged: Vec<(Instant, Instant)> = Vec::with_capacity(intervals.len());
    for (start, end) in intervals {
        match merged.last_mut() {
            Some(last) if start <= last.1 => last.1 = last.1.max(end),
            _ => merged.push((start, end)),
        }
    }
    merged
}

/// Whether a busy entry is the operation being moved.
fn is_excluded(busy: &Busy, exclude_op: Option<i64>) -> bool {
    matches!(busy.kind, BusyKind::Operation { op_id, .. } if Some(op_id) == exclude_op)
}

/// 0 = Monday .. 6 = Sunday, matching [`Calendar::weekly`].
fn weekday_index(day: NaiveDate) -> usize {
    // At most 6, so the cast never truncates.
    day.weekday().num_days_from_monday() as usize
}

/// `t + minutes`, or None on overflow (never panics).
fn add_minutes(t: Instant, minutes: i64) -> Option<Instant> {
    t.checked_add_signed(TimeDelta::try_minutes(minutes)?)
}

/// Midnight UTC at the start of `day`.
fn day_start(day: NaiveDate) -> Option<Instant> {
    Some(day.and_hms_opt(0, 0, 0)?.and_utc())
}

/// The instant `minute` minutes after midnight of `day` (1440 = next midnight).
fn at_minute(day: NaiveDate, minute: u16) -> Option<Instant> {
    add_minutes(day_start(day)?, i64::from(minute))
}

/// "2026-12-01 08:00 UTC": minutes are the finest unit users plan in.
fn format_instant(t: &Instant) -> String {
    t.format("%Y-%m-%d %H:%M UTC").to_string()
}

/// "2026-12-01 08:00–10:00 UTC", or both dates when the span crosses midnight.
fn format_span(span: &Span) -> String {
    if span.start.date_naive() == span.end.date_naive() {
        format!(
            "{}–{} UTC",
            span.start.format("%Y-%m-%d %H:%M"),
            span.end.format("%H:%M")
        )
    } else {
        format!(
            "{} – {} UTC",
            span.start.format("%Y-%m-%d %H:%M"),
            span.end.format("%Y-%m-%d %H:%M")
        )
    }
}

/// A horizon as a date when it falls on midnight, else with the time.
fn format_limit(t: &Instant) -> String {
    match day_start(t.date_naive()).map(|m| m.cmp(t)) {
        Some(Ordering::Equal) => t.format("%Y-%m-%d").to_string(),
        _ => format_instant(t),
    }
}

/// Upper-cases the first letter so a reason can open a sentence.
fn capitalize(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
#[path = "engine_tests.rs"]
mod tests;
