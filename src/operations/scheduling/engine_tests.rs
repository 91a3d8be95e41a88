#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use super::*;
use chrono::TimeZone;
use proptest::prelude::*;

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

/// Monday 2026-11-30 00:00 UTC: every generated time is on a 15-minute grid
/// from here, so brute-force checks on that grid are exact.
fn base() -> Instant {
    Utc.with_ymd_and_hms(2026, 11, 30, 0, 0, 0).unwrap()
}

fn at(y: i32, mo: u32, d: u32, h: u32, mi: u32) -> Instant {
    Utc.with_ymd_and_hms(y, mo, d, h, mi, 0).unwrap()
}

/// `n` quarter-hours after [`base`].
fn q(n: i64) -> Instant {
    base() + TimeDelta::minutes(15 * n)
}

fn span(start: Instant, end: Instant) -> Span {
    Span::new(start, end).unwrap()
}

fn date(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap()
}

fn printer(id: i64, calendar: Calendar, busy: Vec<Busy>) -> Lane {
    Lane {
        key: LaneKey::Printer(id),
        code: format!("P{id}"),
        work_center_ids: vec![1],
        calendar,
        caps: MachineCaps {
            enclosed: true,
            max_nozzle_temp_c: Some(300),
            max_bed_temp_c: Some(110),
            ..Default::default()
        },
        busy,
    }
}

fn op_busy(s: Span, op_id: i64, key: Option<&str>) -> Busy {
    Busy {
        span: s,
        kind: BusyKind::Operation {
            op_id,
            order_id: 900 + op_id,
            setup_key: key.map(str::to_string),
        },
    }
}

fn maint(s: Span, window_id: i64) -> Busy {
    Busy {
        span: s,
        kind: BusyKind::Maintenance { window_id },
    }
}

fn job_op(op_id: i64, seq: i32, setup: i64, run: i64, key: Option<&str>) -> JobOp {
    JobOp {
        op_id,
        sequence: seq,
        work_center_id: 1,
        setup_minutes: setup,
        run_minutes: run,
        needs: MaterialNeeds::default(),
        setup_key: key.map(str::to_string),
    }
}

fn job(order_id: i64, priority: i32, not_before: Instant, ops: Vec<JobOp>) -> Job {
    Job {
        order_id,
        code: format!("MO-{order_id}"),
        priority,
        due: None,
        ops,
        not_before,
    }
}

/// Mon-Fri 08:00-18:00.
fn office_hours() -> Calendar {
    let day = vec![(480, 1080)];
    Calendar {
        weekly: Some([
            day.clone(),
            day.clone(),
            day.clone(),
            day.clone(),
            day,
            vec![],
            vec![],
        ]),
        exceptions: BTreeMap::new(),
    }
}

fn is_free(lane: &Lane, s: Span, exclude: Option<i64>) -> bool {
    lane.calendar.contains(s)
        && !lane
            .busy
            .iter()
            .any(|b| b.span.overlaps(&s) && !is_excluded(b, exclude))
}

// ---------------------------------------------------------------------------
// Unit tests
// ---------------------------------------------------------------------------

#[test]
fn overnight_periods_merge_into_one_stretch() {
    // Monday 22:00-24:00 then Tuesday 00:00-06:00: one night shift.
    let mut week: [Vec<(u16, u16)>; 7] = Default::default();
    week[0] = vec![(1320, 1440)];
    week[1] = vec![(0, 360), (600, 700)];
    let cal = Calendar {
        weekly: Some(week),
        exceptions: BTreeMap::new(),
    };
    let limit = at(2026, 12, 10, 0, 0);
    let st = cal
        .stretch_at_or_after(at(2026, 11, 30, 23, 0), limit)
        .unwrap();
    assert_eq!(
        st,
        span(at(2026, 11, 30, 22, 0), at(2026, 12, 1, 6, 0)),
        "stretch reaches back to its real start and over midnight"
    );
    // Looking from Tuesday 02:00 finds the same stretch's start on Monday.
    let st = cal
        .stretch_at_or_after(at(2026, 12, 1, 2, 0), limit)
        .unwrap();
    assert_eq!(st.start, at(2026, 11, 30, 22, 0));
    assert!(cal.contains(span(at(2026, 11, 30, 23, 0), at(2026, 12, 1, 5, 0))));
    assert!(!cal.contains(span(at(2026, 12, 1, 5, 0), at(2026, 12, 1, 10, 30))));
    // From Monday noon the next stretch is the night shift.
    let st = cal
        .stretch_at_or_after(at(2026, 11, 30, 12, 0), limit)
        .unwrap();
    assert_eq!(st.start, at(2026, 11, 30, 22, 0));
    // From Tuesday 06:00 (closing time, half-open) the next is 10:00.
    let st = cal
        .stretch_at_or_after(at(2026, 12, 1, 6, 0), limit)
        .unwrap();
    assert_eq!(st, span(at(2026, 12, 1, 10, 0), at(2026, 12, 1, 11, 40)));
}

#[test]
fn always_open_is_one_stretch_up_to_limit() {
    let cal = Calendar::always_open();
    let from = at(2026, 12, 1, 9, 30);
    let limit = at(2027, 3, 1, 0, 0);
    let st = cal.stretch_at_or_after(from, limit).unwrap();
    assert_eq!(st.end, limit);
    assert!(st.start <= from);
    assert_eq!(cal.periods_on(date(2026, 12, 1)), vec![(0, 1440)]);
    assert!(cal.stretch_at_or_after(limit, limit).is_none());
}

#[test]
fn never_open_calendar_has_no_stretch() {
    let cal = Calendar {
        weekly: Some(Default::default()),
        exceptions: BTreeMap::new(),
    };
    let far = at(9000, 1, 1, 0, 0);
    assert!(cal.stretch_at_or_after(base(), far).is_none());
}

#[test]
fn periods_are_sorted_merged_and_cleaned() {
    let mut week: [Vec<(u16, u16)>; 7] = Default::default();
    week[0] = vec![(600, 700), (100, 200), (150, 300), (900, 900), (1400, 2000)];
    let cal = Calendar {
        weekly: Some(week),
        exceptions: BTreeMap::new(),
    };
    assert_eq!(
        cal.periods_on(date(2026, 11, 30)),
        vec![(100, 300), (600, 700), (1400, 1440)]
    );
}

#[test]
fn exception_closes_a_day() {
    let mut cal = Calendar::always_open();
    cal.exceptions.insert(date(2026, 12, 1), vec![]);
    assert!(cal.periods_on(date(2026, 12, 1)).is_empty());
    assert!(!cal.contains(span(at(2026, 12, 1, 9, 0), at(2026, 12, 1, 10, 0))));
    let lane = printer(1, cal, vec![]);
    let fit = earliest_fit(&lane, at(2026, 11, 30, 23, 0), 120, q(96 * 10), None).unwrap();
    assert_eq!(fit.start, at(2026, 12, 2, 0, 0), "skips the closed day");
    // An exception can also open a weekend day on an office calendar.
    let mut office = office_hours();
    office
        .exceptions
        .insert(date(2026, 12, 5), vec![(540, 720)]);
    let lane = printer(2, office, vec![]);
    let fit = earliest_fit(&lane, at(2026, 12, 4, 17, 0), 120, q(96 * 10), None).unwrap();
    assert_eq!(fit, span(at(2026, 12, 5, 9, 0), at(2026, 12, 5, 11, 0)));
}

#[test]
fn enclosure_refusal_message() {
    let caps = MachineCaps::default();
    let abs = MaterialNeeds {
        material: Some("ABS".into()),
        requires_enclosure: true,
        ..Default::default()
    };
    assert_eq!(
        compatible(&caps, &abs),
        Err("ABS needs an enclosed printer".to_string())
    );
    let mut lane = printer(1, Calendar::always_open(), vec![]);
    lane.caps = caps;
    let refusals = check_booking(&lane, span(q(0), q(4)), 1, &abs, None, None);
    assert_eq!(
        refusals,
        vec![Refusal::Incompatible(
            "ABS needs an enclosed printer".into()
        )]
    );
    assert_eq!(refusals[0].message(), "ABS needs an enclosed printer");
    let unnamed = MaterialNeeds {
        requires_enclosure: true,
        ..Default::default()
    };
    assert_eq!(
        Refusal::Incompatible(compatible(&MachineCaps::default(), &unnamed).unwrap_err()).message(),
        "The material needs an enclosed printer"
    );
}

#[test]
fn temperature_refusal_messages() {
    let caps = MachineCaps {
        enclosed: true,
        max_nozzle_temp_c: Some(260),
        max_bed_temp_c: Some(100),
        ..Default::default()
    };
    let pc = MaterialNeeds {
        material: Some("PC".into()),
        requires_enclosure: true,
        nozzle_temp_c: Some(300),
        bed_temp_c: Some(110),
        ..Default::default()
    };
    assert_eq!(
        compatible(&caps, &pc),
        Err("PC needs a 300 °C nozzle; this printer reaches 260 °C; \
             PC needs a 110 °C bed; this printer reaches 100 °C"
            .to_string())
    );
    let unknown_limits = MachineCaps {
        enclosed: true,
        ..Default::default()
    };
    assert_eq!(compatible(&unknown_limits, &pc), Ok(()));
}

#[test]
fn check_booking_reports_every_refusal() {
    let lane = printer(
        1,
        office_hours(),
        vec![
            maint(span(at(2026, 12, 1, 9, 0), at(2026, 12, 1, 9, 30)), 5),
            op_busy(
                span(at(2026, 12, 1, 8, 0), at(2026, 12, 1, 10, 0)),
                12,
                None,
            ),
            op_busy(
                span(at(2026, 12, 1, 17, 0), at(2026, 12, 1, 18, 0)),
                13,
                None,
            ),
        ],
    );
    let s = span(at(2026, 12, 1, 9, 0), at(2026, 12, 1, 19, 0));
    let earliest = at(2026, 12, 1, 11, 0);
    let refusals = check_booking(&lane, s, 2, &MaterialNeeds::default(), Some(earliest), None);
    let messages: Vec<String> = refusals.iter().map(Refusal::message).collect();
    assert_eq!(
        messages,
        vec![
            "This machine is not in the operation's work center".to_string(),
            "Falls outside the machine's working hours".to_string(),
            "Starts before the previous operation ends (earliest start 2026-12-01 11:00 UTC)"
                .to_string(),
            "Overlaps operation 12 of order 912 (2026-12-01 08:00–10:00 UTC)".to_string(),
            "Overlaps maintenance window 5 (2026-12-01 09:00–09:30 UTC)".to_string(),
            "Overlaps operation 13 of order 913 (2026-12-01 17:00–18:00 UTC)".to_string(),
        ]
    );
    // Moving operation 12 itself: it no longer clashes with its own slot.
    let ok = span(at(2026, 12, 1, 10, 0), at(2026, 12, 1, 12, 0));
    let moved = check_booking(&lane, ok, 1, &MaterialNeeds::default(), None, Some(12));
    assert!(moved.is_empty(), "{moved:?}");
    let spans_midnight = Refusal::Overlap {
        op_id: 1,
        order_id: 2,
        span: span(at(2026, 12, 1, 22, 0), at(2026, 12, 2, 2, 0)),
    };
    assert_eq!(
        spans_midnight.message(),
        "Overlaps operation 1 of order 2 (2026-12-01 22:00 – 2026-12-02 02:00 UTC)"
    );
}

#[test]
fn earliest_fit_respects_busy_hours_and_exclusion() {
    let lane = printer(
        1,
        office_hours(),
        vec![
            op_busy(span(at(2026, 12, 1, 8, 0), at(2026, 12, 1, 10, 0)), 7, None),
            maint(span(at(2026, 12, 1, 11, 0), at(2026, 12, 1, 12, 0)), 1),
        ],
    );
    let limit = at(2026, 12, 31, 0, 0);
    let from = at(2026, 12, 1, 7, 0);
    assert_eq!(
        earliest_fit(&lane, from, 60, limit, None),
        Some(span(at(2026, 12, 1, 10, 0), at(2026, 12, 1, 11, 0)))
    );
    assert_eq!(
        earliest_fit(&lane, from, 90, limit, None),
        Some(span(at(2026, 12, 1, 12, 0), at(2026, 12, 1, 13, 30)))
    );
    assert_eq!(
        earliest_fit(&lane, from, 90, limit, Some(7)),
        Some(span(at(2026, 12, 1, 8, 0), at(2026, 12, 1, 9, 30)))
    );
    // Too long for any working day.
    assert_eq!(earliest_fit(&lane, from, 11 * 60, limit, None), None);
    // Friday 17:00: the next fit is Monday morning.
    assert_eq!(
        earliest_fit(&lane, at(2026, 12, 4, 17, 0), 120, limit, None),
        Some(span(at(2026, 12, 7, 8, 0), at(2026, 12, 7, 10, 0)))
    );
    // Must end by the limit.
    assert_eq!(
        earliest_fit(&lane, from, 60, at(2026, 12, 1, 10, 30), None),
        None
    );
}

#[test]
fn free_slots_and_utilisation() {
    let lane = printer(
        1,
        office_hours(),
        vec![
            op_busy(span(at(2026, 12, 1, 9, 0), at(2026, 12, 1, 10, 0)), 1, None),
            op_busy(
                span(at(2026, 12, 1, 9, 30), at(2026, 12, 1, 11, 0)),
                2,
                None,
            ),
            maint(span(at(2026, 12, 1, 12, 0), at(2026, 12, 1, 12, 20)), 3),
        ],
    );
    let window = span(at(2026, 12, 1, 0, 0), at(2026, 12, 2, 0, 0));
    assert_eq!(
        free_slots(&lane, window, 30),
        vec![
            span(at(2026, 12, 1, 8, 0), at(2026, 12, 1, 9, 0)),
            span(at(2026, 12, 1, 11, 0), at(2026, 12, 1, 12, 0)),
            span(at(2026, 12, 1, 12, 20), at(2026, 12, 1, 18, 0)),
        ]
    );
    assert_eq!(free_slots(&lane, window, 61).len(), 1);
    // 2 h of operations (overlap counted once) in 24 h = 8.3 %.
    assert_eq!(utilisation_percent(&lane, window), 8.3);
    let narrow = span(at(2026, 12, 1, 9, 0), at(2026, 12, 1, 11, 0));
    assert_eq!(utilisation_percent(&lane, narrow), 100.0);
    assert_eq!(free_slots(&lane, narrow, 0), vec![]);
}

#[test]
fn setup_is_saved_after_same_key() {
    let lane = printer(
        1,
        Calendar::always_open(),
        vec![op_busy(span(q(0), q(8)), 50, Some("PETG-black"))],
    );
    let jobs = vec![
        job(1, 1, q(8), vec![job_op(11, 10, 30, 60, Some("PETG-black"))]),
        job(2, 2, q(8), vec![job_op(21, 10, 30, 60, Some("PLA-white"))]),
    ];
    let plan = auto_schedule(&[lane], &jobs, q(0), q(96 * 21));
    assert_eq!(
        plan.bookings,
        vec![
            Booking {
                op_id: 11,
                order_id: 1,
                lane: LaneKey::Printer(1),
                span: span(q(8), q(12)),
                setup_saved: true,
            },
            Booking {
                op_id: 21,
                order_id: 2,
                lane: LaneKey::Printer(1),
                span: span(q(12), q(18)),
                setup_saved: false,
            },
        ]
    );
}

#[test]
fn backfill_never_breaks_a_saved_setup() {
    // Job 1 (urgent) saves its setup after the existing "A" booking at 12:00.
    // Job 2 could fit in the morning gap, but going right before job 1 with
    // another key would void job 1's saved setup, so it must go after.
    let lane = printer(
        1,
        Calendar::always_open(),
        vec![op_busy(span(q(16), q(24)), 50, Some("A"))],
    );
    let make = |key: &str| {
        vec![
            job(1, 1, q(48), vec![job_op(11, 10, 60, 60, Some("A"))]),
            job(2, 2, q(32), vec![job_op(21, 10, 0, 60, Some(key))]),
        ]
    };
    let plan = auto_schedule(std::slice::from_ref(&lane), &make("B"), q(0), q(96 * 21));
    assert_eq!(plan.bookings[0].span, span(q(48), q(52)));
    assert!(plan.bookings[0].setup_saved);
    assert_eq!(plan.bookings[1].span, span(q(52), q(56)));
    // With the same key it may take the gap, and saves its own setup too.
    let plan = auto_schedule(&[lane], &make("A"), q(0), q(96 * 21));
    assert_eq!(plan.bookings[1].span, span(q(32), q(36)));
    assert!(plan.bookings[1].setup_saved);
}

#[test]
fn unplaced_reasons_and_lateness() {
    let mut lane = printer(3, Calendar::always_open(), vec![]);
    lane.caps.enclosed = false;
    lane.work_center_ids = vec![4];
    let abs = MaterialNeeds {
        material: Some("ABS".into()),
        requires_enclosure: true,
        ..Default::default()
    };
    let mut first = job_op(1, 10, 0, 60, None);
    first.work_center_id = 4;
    first.needs = abs;
    let mut second = job_op(2, 20, 0, 60, None);
    second.work_center_id = 4;
    let mut nowhere = job_op(3, 10, 0, 60, None);
    nowhere.work_center_id = 9;
    let mut too_long = job_op(4, 10, 0, 60 * 24 * 30, None);
    too_long.work_center_id = 4;
    let mut due_soon = job(13, 1, q(0), vec![job_op(5, 10, 0, 120, None)]);
    due_soon.ops[0].work_center_id = 4;
    due_soon.due = Some(q(4));
    let jobs = vec![
        job(10, 1, q(0), vec![first, second]),
        job(11, 2, q(0), vec![nowhere]),
        job(12, 3, q(0), vec![too_long]),
        due_soon,
    ];
    let horizon = at(2026, 12, 14, 0, 0);
    let plan = auto_schedule(&[lane], &jobs, q(0), horizon);
    let by_order = |id: i64| plan.outcomes.iter().find(|o| o.order_id == id).unwrap();
    assert_eq!(
        by_order(10).unplaced,
        vec![
            (
                1,
                "No machine in work center 4 can run it: ABS needs an enclosed printer".into()
            ),
            (2, "Its previous operation could not be scheduled".into()),
        ]
    );
    assert!(by_order(10).late);
    assert_eq!(by_order(10).planned_finish, None);
    assert_eq!(
        by_order(11).unplaced,
        vec![(3, "No machine in work center 9".into())]
    );
    assert_eq!(
        by_order(12).unplaced,
        vec![(
            4,
            "No free time on a compatible machine before 2026-12-14".into()
        )]
    );
    let soon = by_order(13);
    assert!(soon.unplaced.is_empty());
    assert_eq!(soon.planned_finish, Some(q(8)));
    assert!(soon.late, "finishes 2 h after start, due after 1 h");
}

#[test]
fn priority_then_due_then_order_id_and_lane_ties() {
    let lanes = vec![
        printer(2, Calendar::always_open(), vec![]),
        printer(1, Calendar::always_open(), vec![]),
    ];
    let mut low = job(1, 3, q(0), vec![job_op(1, 10, 0, 60, None)]);
    low.due = Some(q(4));
    let mut urgent_late_due = job(5, 1, q(0), vec![job_op(5, 10, 0, 60, None)]);
    urgent_late_due.due = Some(q(400));
    let mut urgent_early_due = job(6, 1, q(0), vec![job_op(6, 10, 0, 60, None)]);
    urgent_early_due.due = Some(q(40));
    let urgent_no_due = job(4, 1, q(0), vec![job_op(4, 10, 0, 60, None)]);
    let plan = auto_schedule(
        &lanes,
        &[low, urgent_no_due, urgent_late_due, urgent_early_due],
        q(0),
        q(96 * 21),
    );
    let order: Vec<i64> = plan.outcomes.iter().map(|o| o.order_id).collect();
    assert_eq!(order, vec![6, 5, 4, 1]);
    // Equal ends go to the smaller lane key, so printer 1 fills first.
    let placed: Vec<(i64, LaneKey, Instant)> = plan
        .bookings
        .iter()
        .map(|b| (b.op_id, b.lane, b.span.start))
        .collect();
    assert_eq!(
        placed,
        vec![
            (6, LaneKey::Printer(1), q(0)),
            (5, LaneKey::Printer(2), q(0)),
            (4, LaneKey::Printer(1), q(4)),
            (1, LaneKey::Printer(2), q(4)),
        ]
    );
}

#[test]
fn zero_minute_operation_takes_one_minute_and_ops_chain() {
    let lanes = vec![printer(1, office_hours(), vec![])];
    let jobs = vec![job(
        1,
        1,
        at(2026, 12, 1, 17, 0),
        vec![job_op(1, 10, 0, 0, None), job_op(2, 20, 15, 600, None)],
    )];
    let plan = auto_schedule(&lanes, &jobs, base(), q(96 * 21));
    assert_eq!(
        plan.bookings[0].span,
        span(at(2026, 12, 1, 17, 0), at(2026, 12, 1, 17, 1))
    );
    // 615 minutes do not fit in a 600-minute day.
    assert_eq!(plan.outcomes[0].unplaced.len(), 1);
    assert!(plan.outcomes[0].unplaced[0].1.starts_with("No free time"));
}

// ---------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------

fn period() -> impl Strategy<Value = (u16, u16)> {
    (0u16..=96, 0u16..=96).prop_filter_map("empty period", |(a, b)| {
        (a != b).then_some((a.min(b) * 15, a.max(b) * 15))
    })
}

/// One day's periods, biased towards ones touching midnight so stretches
/// often run overnight.
fn day_periods() -> impl Strategy<Value = Vec<(u16, u16)>> {
    prop_oneof![
        2 => Just(vec![]),
        1 => Just(vec![(0, 1440)]),
        2 => (1u16..96).prop_map(|c| vec![(0, c * 15)]),
        2 => (0u16..95).prop_map(|o| vec![(o * 15, 1440)]),
        1 => (1u16..48, 48u16..95).prop_map(|(c, o)| vec![(0, c * 15), (o * 15, 1440)]),
        6 => prop::collection::vec(period(), 1..=2),
    ]
}

fn calendar() -> impl Strategy<Value = Calendar> {
    let weekly = prop::option::weighted(0.7, prop::array::uniform7(day_periods()));
    let exceptions = prop::collection::vec((0i64..21, day_periods()), 0..=3);
    (weekly, exceptions).prop_map(|(weekly, exceptions)| Calendar {
        weekly,
        exceptions: exceptions
            .into_iter()
            .map(|(d, p)| (base().date_naive() + TimeDelta::days(d), p))
            .collect(),
    })
}

fn caps() -> impl Strategy<Value = MachineCaps> {
    (
        any::<bool>(),
        prop::option::of(prop::sample::select(vec![240, 260, 300])),
        prop::option::of(prop::sample::select(vec![60, 100, 120])),
    )
        .prop_map(|(enclosed, nozzle, bed)| MachineCaps {
            enclosed,
            max_nozzle_temp_c: nozzle,
            max_bed_temp_c: bed,
            ..Default::default()
        })
}

fn setup_key() -> impl Strategy<Value = Option<String>> {
    prop::option::of(prop::sample::select(vec!["A", "B", "C"]).prop_map(str::to_string))
}

/// Busy entries within 14 days of [`base`]; overlapping ones are dropped.
fn busy_list(lane_index: i64) -> impl Strategy<Value = Vec<Busy>> {
    let raw = (
        0i64..14 * 96,
        1i64..=32,
        prop::bool::weighted(0.3),
        setup_key(),
    );
    prop::collection::vec(raw, 0..=6).prop_map(move |mut raw| {
        raw.sort_by_key(|r| r.0);
        let mut busy: Vec<Busy> = Vec::new();
        for (n, (start, len, is_maint, key)) in raw.into_iter().enumerate() {
            let s = span(q(start), q(start + len));
            if busy.last().is_some_and(|b| b.span.end > s.start) {
                continue;
            }
            let id = 100_000 + lane_index * 100 + n as i64;
            busy.push(if is_maint {
                maint(s, id)
            } else {
                Busy {
                    span: s,
                    kind: BusyKind::Operation {
                        op_id: id,
                        order_id: 50_000 + id,
                        setup_key: key,
                    },
                }
            });
        }
        busy
    })
}

fn lane(index: i64) -> impl Strategy<Value = Lane> {
    (
        any::<bool>(),
        1i64..=3,
        prop::option::of(1i64..=3),
        calendar(),
        caps(),
        busy_list(index),
    )
        .prop_map(move |(is_printer, wc, wc2, calendar, caps, busy)| {
            let mut work_center_ids = vec![wc];
            work_center_ids.extend(wc2.filter(|w| *w != wc));
            Lane {
                key: if is_printer {
                    LaneKey::Printer(index)
                } else {
                    LaneKey::Resource(index)
                },
                code: format!("L{index}"),
                work_center_ids,
                calendar,
                caps,
                busy,
            }
        })
}

fn lanes() -> impl Strategy<Value = Vec<Lane>> {
    (1usize..=6).prop_flat_map(|n| (0..n as i64).map(lane).collect::<Vec<_>>())
}

fn needs() -> impl Strategy<Value = MaterialNeeds> {
    (
        prop::sample::select(vec![None, Some("PLA"), Some("ABS"), Some("PC")]),
        prop::bool::weighted(0.25),
        prop::option::weighted(0.3, prop::sample::select(vec![210, 250, 280, 310])),
        prop::option::weighted(0.3, prop::sample::select(vec![60, 90, 110])),
    )
        .prop_map(|(material, enclosure, nozzle, bed)| MaterialNeeds {
            material: material.map(str::to_string),
            requires_enclosure: enclosure,
            nozzle_temp_c: nozzle,
            bed_temp_c: bed,
            ..Default::default()
        })
}

fn jobs() -> impl Strategy<Value = Vec<Job>> {
    let op = (1i64..=3, 0i64..=60, 1i64..=600, needs(), setup_key());
    let job = (
        1i32..=5,
        prop::option::of(0i64..21 * 96),
        0i64..7 * 96,
        prop::collection::vec(op, 1..=4),
    );
    prop::collection::vec(job, 1..=25).prop_map(|raw| {
        raw.into_iter()
            .enumerate()
            .map(|(j, (priority, due, not_before, ops))| {
                let order_id = j as i64 + 1;
                Job {
                    order_id,
                    code: format!("MO-{order_id}"),
                    priority,
                    due: due.map(q),
                    not_before: q(not_before),
                    ops: ops
                        .into_iter()
                        .enumerate()
                        .map(|(i, (wc, setup, run, needs, key))| JobOp {
                            op_id: order_id * 10 + i as i64,
                            sequence: (i as i32 + 1) * 10,
                            work_center_id: wc,
                            setup_minutes: setup,
                            run_minutes: run,
                            needs,
                            setup_key: key,
                        })
                        .collect(),
                }
            })
            .collect()
    })
}

// ---------------------------------------------------------------------------
// Plan invariants
// ---------------------------------------------------------------------------

/// The Operation busy (existing or booked) on a lane with the latest end at
/// or before `at`, skipping `skip_op`.
fn previous_operation<'a>(
    lane: &'a Lane,
    others: &'a [(&'a Booking, &'a JobOp)],
    at: Instant,
    skip_op: i64,
) -> Option<(Instant, Option<&'a str>)> {
    let existing = lane.busy.iter().filter_map(|b| match &b.kind {
        BusyKind::Operation { setup_key, .. } => Some((b.span.end, setup_key.as_deref())),
        BusyKind::Maintenance { .. } => None,
    });
    let booked = others
        .iter()
        .filter(|(b, _)| b.lane == lane.key && b.op_id != skip_op)
        .map(|(b, op)| (b.span.end, op.setup_key.as_deref()));
    existing
        .chain(booked)
        .filter(|(end, _)| *end <= at)
        .max_by_key(|(end, _)| *end)
}

fn check_plan(lanes: &[Lane], jobs: &[Job], now: Instant, horizon: Instant, plan: &Plan) {
    let ops: Vec<(&Job, &JobOp)> = jobs
        .iter()
        .flat_map(|j| j.ops.iter().map(move |o| (j, o)))
        .collect();
    let find_op = |id: i64| ops.iter().find(|(_, o)| o.op_id == id).copied().unwrap();
    let booked: Vec<(&Booking, &JobOp)> = plan
        .bookings
        .iter()
        .map(|b| (b, find_op(b.op_id).1))
        .collect();
    let lane_of = |key: LaneKey| lanes.iter().find(|l| l.key == key).unwrap();

    for (i, (b, op)) in booked.iter().enumerate() {
        let lane = lane_of(b.lane);
        // 1. No overlap with other bookings or existing busy time.
        for (other, _) in &booked[i + 1..] {
            assert!(
                other.lane != b.lane || !other.span.overlaps(&b.span),
                "double booking {b:?} {other:?}"
            );
        }
        for busy in &lane.busy {
            assert!(!busy.span.overlaps(&b.span), "{b:?} hits {busy:?}");
        }
        // 2. Inside working hours.
        assert!(lane.calendar.contains(b.span), "outside hours {b:?}");
        // 4. Right work center, compatible machine.
        assert!(lane.work_center_ids.contains(&op.work_center_id));
        assert_eq!(compatible(&lane.caps, &op.needs), Ok(()));
        // 5. Length, and setup saved only after the same key.
        let full = (op.setup_minutes + op.run_minutes).max(1);
        let expected = if b.setup_saved {
            let prev = previous_operation(lane, &booked, b.span.start, b.op_id);
            let prev_key = prev.and_then(|p| p.1);
            assert!(
                prev_key.is_some() && prev_key == op.setup_key.as_deref(),
                "setup saved without a matching predecessor: {b:?} after {prev:?}"
            );
            op.run_minutes.max(1)
        } else {
            full
        };
        assert_eq!(b.span.minutes(), expected, "{b:?} {op:?}");
        // 6. Within the horizon.
        assert!(b.span.end <= horizon);
        assert_eq!(b.order_id, find_op(b.op_id).0.order_id);
    }
    // 6. Every op booked exactly once or unplaced exactly once.
    for (job, op) in &ops {
        let times_booked = plan.bookings.iter().filter(|b| b.op_id == op.op_id).count();
        let outcome = plan.outcomes.iter().find(|o| o.order_id == job.order_id);
        let times_unplaced = outcome.map_or(0, |o| {
            o.unplaced.iter().filter(|(id, _)| *id == op.op_id).count()
        });
        assert_eq!(times_booked + times_unplaced, 1, "op {}", op.op_id);
    }
    assert_eq!(plan.outcomes.len(), jobs.len());
    for job in jobs {
        check_job(lanes, job, now, plan, &booked);
    }
}

/// Invariants 3, 7 and 8 for one job.
fn check_job(lanes: &[Lane], job: &Job, now: Instant, plan: &Plan, booked: &[(&Booking, &JobOp)]) {
    let outcome = plan
        .outcomes
        .iter()
        .find(|o| o.order_id == job.order_id)
        .unwrap();
    let mut earliest = now.max(job.not_before);
    let mut failed = false;
    let mut finish = None;
    for op in &job.ops {
        let booking = plan.bookings.iter().find(|b| b.op_id == op.op_id);
        match booking {
            Some(b) => {
                assert!(!failed, "op {} placed after an unplaced op", op.op_id);
                assert!(b.span.start >= earliest, "{b:?} before {earliest}");
                // 7. The booking passes the manual check against the rest.
                let mut lane = lanes.iter().find(|l| l.key == b.lane).unwrap().clone();
                lane.busy.extend(
                    booked
                        .iter()
                        .filter(|(o, _)| o.lane == b.lane && o.op_id != b.op_id)
                        .map(|(o, oop)| Busy {
                            span: o.span,
                            kind: BusyKind::Operation {
                                op_id: o.op_id,
                                order_id: o.order_id,
                                setup_key: oop.setup_key.clone(),
                            },
                        }),
                );
                let refusals = check_booking(
                    &lane,
                    b.span,
                    op.work_center_id,
                    &op.needs,
                    Some(earliest),
                    Some(op.op_id),
                );
                assert!(refusals.is_empty(), "{b:?}: {refusals:?}");
                earliest = b.span.end;
                finish = Some(b.span.end);
            }
            None => failed = true,
        }
    }
    // 8. Outcome fields.
    assert_eq!(outcome.planned_finish, finish);
    assert_eq!(outcome.due, job.due);
    let late_by_date = matches!((job.due, finish), (Some(d), Some(f)) if f > d);
    assert_eq!(outcome.late, failed || late_by_date);
    if let Some(first_failure) = outcome.unplaced.first() {
        for (_, reason) in &outcome.unplaced[1..] {
            assert_eq!(reason, "Its previous operation could not be scheduled");
        }
        assert_ne!(
            first_failure.1,
            "Its previous operation could not be scheduled"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn auto_schedule_keeps_every_invariant(
        lanes in lanes(),
        jobs in jobs(),
        now_q in 0i64..96,
    ) {
        let now = q(now_q);
        let horizon = now + TimeDelta::days(21);
        let plan = auto_schedule(&lanes, &jobs, now, horizon);
        check_plan(&lanes, &jobs, now, horizon, &plan);
        // Deterministic: the same input gives the same plan.
        prop_assert_eq!(plan, auto_schedule(&lanes, &jobs, now, horizon));
    }

    #[test]
    fn earliest_fit_finds_the_first_free_start(
        lane in lane(0),
        after_q in 0i64..4 * 96,
        quarters in 1i64..=40,
        limit_q in 1i64..=7 * 96,
        exclude_first in any::<bool>(),
    ) {
        let after = q(after_q);
        let minutes = quarters * 15;
        let limit = q(after_q + limit_q);
        let exclude = lane.busy.iter().find_map(|b| match b.kind {
            BusyKind::Operation { op_id, .. } if exclude_first => Some(op_id),
            _ => None,
        });
        let fit = earliest_fit(&lane, after, minutes, limit, exclude);
        let search_end = match fit {
            Some(s) => {
                prop_assert!(s.start >= after && s.end <= limit);
                prop_assert_eq!(s.minutes(), minutes);
                prop_assert!(is_free(&lane, s, exclude), "{:?} not free", s);
                let needs = MaterialNeeds::default();
                let wc = lane.work_center_ids[0];
                let refusals = check_booking(&lane, s, wc, &needs, Some(after), exclude);
                prop_assert!(refusals.is_empty(), "{:?}", refusals);
                s.start
            }
            None => limit,
        };
        // Brute force on the 15-minute grid: nothing earlier was feasible.
        let mut start = after;
        while start < search_end {
            let end = start + TimeDelta::minutes(minutes);
            if end <= limit {
                prop_assert!(
                    !is_free(&lane, span(start, end), exclude),
                    "{}..{} was free but fit was {:?}", start, end, fit
                );
            }
            start += TimeDelta::minutes(15);
        }
    }

    #[test]
    fn free_slots_are_open_free_sorted_and_maximal(
        lane in lane(0),
        start_q in 0i64..10 * 96,
        len_q in 1i64..=5 * 96,
        min_minutes in prop::sample::select(vec![0i64, 15, 60, 240]),
    ) {
        let window = span(q(start_q), q(start_q + len_q));
        let slots = free_slots(&lane, window, min_minutes);
        let quarter = TimeDelta::minutes(15);
        for (i, s) in slots.iter().enumerate() {
            prop_assert!(s.start >= window.start && s.end <= window.end);
            prop_assert!(s.minutes() >= min_minutes);
            prop_assert!(is_free(&lane, *s, None), "{:?} not free", s);
            if let Some(next) = slots.get(i + 1) {
                prop_assert!(s.end < next.start, "not sorted/disjoint");
            }
            if s.start > window.start {
                prop_assert!(!is_free(&lane, span(s.start - quarter, s.start), None));
            }
            if s.end < window.end {
                prop_assert!(!is_free(&lane, span(s.end, s.end + quarter), None));
            }
        }
        if min_minutes <= 15 {
            let mut t = window.start;
            while t < window.end {
                let cell = span(t, t + quarter);
                if is_free(&lane, cell, None) {
                    prop_assert!(
                        slots.iter().any(|s| s.start <= cell.start && cell.end <= s.end),
                        "free quarter {:?} missing", cell
                    );
                }
                t += quarter;
            }
        }
    }

    #[test]
    fn contains_matches_periods_on(
        calendar in calendar(),
        start_q in 0i64..14 * 96,
        len_q in 1i64..=3 * 96,
    ) {
        // Independent oracle: every quarter of the span is inside one of
        // that day's periods.
        let open_quarter = |n: i64| {
            let t = q(n);
            let minute = (t - day_start(t.date_naive()).unwrap()).num_minutes();
            calendar
                .periods_on(t.date_naive())
                .iter()
                .any(|&(o, c)| i64::from(o) <= minute && minute < i64::from(c))
        };
        let expected = (start_q..start_q + len_q).all(open_quarter);
        prop_assert_eq!(calendar.contains(span(q(start_q), q(start_q + len_q))), expected);
    }

    #[test]
    fn stretch_contains_its_start_and_is_open(
        calendar in calendar(),
        at_q in 0i64..14 * 96,
        limit_q in 1i64..=7 * 96,
    ) {
        let from = q(at_q);
        let limit = q(at_q + limit_q);
        match calendar.stretch_at_or_after(from, limit) {
            Some(st) => {
                prop_assert!(st.end <= limit);
                prop_assert!(st.end > from);
                prop_assert!(calendar.contains(st), "{:?} not open", st);
                // Maximal at the end unless capped by the limit.
                if st.end < limit {
                    prop_assert!(!calendar.contains(span(st.end, st.end + TimeDelta::minutes(15))));
                }
                if st.start > from {
                    // Nothing open between `from` and the stretch.
                    let mut t = from;
                    while t < st.start {
                        prop_assert!(!calendar.contains(span(t, t + TimeDelta::minutes(15))));
                        t += TimeDelta::minutes(15);
                    }
                }
            }
            None => {
                let mut t = from;
                while t < limit {
                    prop_assert!(!calendar.contains(span(t, t + TimeDelta::minutes(15))));
                    t += TimeDelta::minutes(15);
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Timing smoke test (run with --ignored --nocapture)
// ---------------------------------------------------------------------------

/// Small deterministic generator so the benchmark needs no extra crates.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

fn timing_case(calendar: Calendar, horizon_days: i64) -> (usize, usize, std::time::Duration) {
    let lanes: Vec<Lane> = (1..=50)
        .map(|i| {
            let mut lane = printer(i, calendar.clone(), vec![]);
            lane.work_center_ids = vec![1 + i % 2];
            lane
        })
        .collect();
    let mut rng = Lcg(42);
    let mut total_ops = 0;
    let jobs: Vec<Job> = (1..=400)
        .map(|j| {
            // 1, 2, 3, 4 in turn: exactly 1,000 operations.
            let count = 1 + j % 4;
            let ops = (0..count)
                .map(|i| {
                    total_ops += 1;
                    let mut op = job_op(
                        j * 10 + i,
                        (i as i32 + 1) * 10,
                        15,
                        30 + rng.next(300) as i64,
                        None,
                    );
                    op.work_center_id = 1 + rng.next(2) as i64;
                    op.setup_key = Some(["A", "B", "C", "D"][rng.next(4) as usize].to_string());
                    op
                })
                .collect();
            let mut job = job(j, 1 + rng.next(5) as i32, q(rng.next(96 * 5) as i64), ops);
            job.due = Some(q(96 * (3 + rng.next(10) as i64)));
            job
        })
        .collect();
    let started = std::time::Instant::now();
    let plan = auto_schedule(
        &lanes,
        &jobs,
        base(),
        base() + TimeDelta::days(horizon_days),
    );
    let elapsed = started.elapsed();
    check_plan(
        &lanes,
        &jobs,
        base(),
        base() + TimeDelta::days(horizon_days),
        &plan,
    );
    (total_ops, plan.bookings.len(), elapsed)
}

#[test]
#[ignore = "timing smoke test; run with --release --ignored --nocapture"]
fn timing_thousand_operations_on_fifty_printers() {
    for (name, calendar) in [
        ("always open", Calendar::always_open()),
        ("Mon-Fri 08-18", office_hours()),
    ] {
        let (ops, booked, elapsed) = timing_case(calendar, 60);
        println!("{name}: {ops} ops, {booked} booked, auto_schedule took {elapsed:?}");
        assert!(elapsed < std::time::Duration::from_secs(1));
    }
}
