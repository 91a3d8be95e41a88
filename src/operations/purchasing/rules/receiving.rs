//! Receiving a purchase order: lot numbers, and the receipt that posts stock, lots, spools
//! and the books in one transaction.

use super::*;

/// The next material lot number of an item, `{MATERIALCODE}-{YYYY}-{NNNN}` (CONTRACT 6.7):
/// the item's material type code when it has one, else its SKU; the year given; the next
/// value of the lot sequence (so no two calls hand out the same number).
pub async fn next_lot_number(
    conn: &mut AsyncPgConnection,
    item_id: i64,
    sku: &str,
    year: i32,
) -> QueryResult<String> {
    let code: Option<String> = material_colors::table
        .inner_join(material_types::table)
        .filter(material_colors::item_id.eq(item_id))
        .select(material_types::code)
        .first(conn)
        .await
        .optional()?;
    let n: i64 = diesel::select(nextval("material_lot_number_seq"))
        .get_result(conn)
        .await?;
    Ok(format!("{}-{year}-{n:04}", code.as_deref().unwrap_or(sku)))
}

/// Whether a lot number is in use (ignoring case).
pub async fn lot_taken(conn: &mut AsyncPgConnection, number: &str) -> QueryResult<bool> {
    Ok(material_lots::table
        .filter(crate::platform::db::text::code_matches(
            material_lots::lot_number,
            number,
        ))
        .select(material_lots::id)
        .first::<i64>(conn)
        .await
        .optional()?
        .is_some())
}

/// The receipt's own checks, before anything is locked: at least one line, each listed once,
/// quantities, texts and spool weights valid. Every problem at once.
fn check_receipt(input: &mut PurchaseReceiveInput) -> Result<(), Stop> {
    let mut errors = Vec::new();
    if input.lines.is_empty() {
        errors.push(invalid("lines", "List should have at least 1 item"));
    }
    optional_text(&mut errors, "notes", &mut input.notes, NOTES_MAX);
    let mut seen = HashSet::new();
    for (i, line) in input.lines.iter_mut().enumerate() {
        let p = format!("lines.{i}.");
        quantity(
            &mut errors,
            &format!("{p}quantityReceived"),
            &line.quantity_received.0,
        );
        optional_text(
            &mut errors,
            &format!("{p}lotNumber"),
            &mut line.lot_number,
            100,
        );
        optional_text(
            &mut errors,
            &format!("{p}vendorLotNumber"),
            &mut line.vendor_lot_number,
            100,
        );
        optional_text(
            &mut errors,
            &format!("{p}notes"),
            &mut line.notes,
            NOTES_MAX,
        );
        if !seen.insert(line.line_id) {
            errors.push(invalid(
                &format!("{p}lineId"),
                format!("Line {} is listed twice", line.line_id),
            ));
        }
        for (k, spool) in line.spools.iter().enumerate() {
            let f = format!("{p}spools.{k}.weightG");
            check_quantity(&mut errors, &f, &spool.weight_g.0);
            if spool.weight_g.0 <= BigDecimal::zero() {
                errors.push(invalid(&f, "Input should be greater than 0"));
            }
        }
    }

    if errors.is_empty() {
        Ok(())
    } else {
        Err(Stop::Refused(errors))
    }
}

/// The receipt against the locked order: every line on the order, none over what remains
/// (unless over-receipt is allowed). Every problem at once.
fn check_against_order(
    po: &PurchaseOrderRow,
    lines: &HashMap<i64, PurchaseOrderLineRow>,
    input: &PurchaseReceiveInput,
) -> Result<(), Stop> {
    let mut errors = Vec::new();
    for (i, r) in input.lines.iter().enumerate() {
        let Some(line) = lines.get(&r.line_id) else {
            errors.push(UserError::new(
                format!("lines.{i}.lineId"),
                UserErrorCode::NotFound,
                format!("Line {} not found on {}", r.line_id, po.po_number),
            ));
            continue;
        };
        let remaining = &line.quantity_ordered.0 - &line.quantity_received.0;
        if !input.allow_over_receipt && r.quantity_received.0 > remaining {
            errors.push(UserError::new(
                format!("lines.{i}.quantityReceived"),
                UserErrorCode::NotAllowed,
                format!(
                    "Cannot receive {} on line {}: only {} remaining",
                    r.quantity_received.0.normalized(),
                    line.line_number,
                    remaining.max(BigDecimal::zero()).normalized()
                ),
            ));
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(Stop::Refused(errors))
    }
}

/// Where the goods go: the given location when it exists and is active, else the default.
async fn receipt_location(
    conn: &mut AsyncPgConnection,
    location_id: Option<i64>,
) -> Result<i64, Stop> {
    Ok(match location_id {
        Some(l) => {
            let active: Option<bool> = locations::table
                .find(l)
                .select(locations::active)
                .first(conn)
                .await
                .optional()?;
            match active {
                None => {
                    return Err(Stop::refuse(
                        "locationId",
                        UserErrorCode::NotFound,
                        format!("Location {l} not found"),
                    ));
                }
                Some(false) => {
                    return Err(not_allowed(
                        "locationId",
                        format!("Location {l} is inactive"),
                    ));
                }
                Some(true) => l,
            }
        }
        None => default_location(conn).await?,
    })
}

/// The lot a received line goes into: the given number (refused when taken), or the next
/// one of the item; none for an item that tracks no lots and was given none.
async fn lot_of_line(
    conn: &mut AsyncPgConnection,
    item: &PurchasedItem,
    r: &ReceiveLineInput,
    date: NaiveDate,
    p: &str,
) -> Result<Option<String>, Stop> {
    let wants_lot =
        item.item_type == ItemType::Material || item.track_lots || r.lot_number.is_some();
    Ok(if wants_lot {
        Some(match &r.lot_number {
            Some(given) => {
                if lot_taken(conn, given).await? {
                    return Err(Stop::refuse(
                        &format!("{p}lotNumber"),
                        UserErrorCode::Taken,
                        format!("Lot number '{given}' already exists"),
                    ));
                }
                given.clone()
            }
            None => next_lot_number(conn, item.id, &item.sku, date.year()).await?,
        })
    } else {
        None
    })
}

/// The spools of a received line of a material weighed in grams: the given weights, or one
/// spool per whole purchase unit; never more than was received. Each spool points at the
/// line's lot (lot -> spool -> production order).
#[allow(clippy::too_many_arguments)]
async fn receive_spools(
    conn: &mut AsyncPgConnection,
    rc: &Receipt<'_>,
    item: &PurchasedItem,
    r: &ReceiveLineInput,
    p: &str,
    (qty, factor, stock_qty): (&BigDecimal, &BigDecimal, &BigDecimal),
    lot_number: &Option<String>,
    lot_id: Option<i64>,
) -> Result<Vec<String>, Stop> {
    let mut spools_created = Vec::new();
    if item.unit != "G" {
        return Err(not_allowed(
            &format!("{p}spools"),
            format!(
                "{} is not stocked in grams; spools hold materials weighed in grams",
                item.sku
            ),
        ));
    }
    let weights: Vec<(BigDecimal, Option<&ReceiveSpoolInput>)> = if r.spools.is_empty() {
        let whole = qty.with_scale_round(0, RoundingMode::Down);
        let count = whole.to_string().parse::<i64>().unwrap_or(0).min(1000);
        (0..count).map(|_| (factor.clone(), None)).collect()
    } else {
        r.spools
            .iter()
            .map(|s| (s.weight_g.0.clone(), Some(s)))
            .collect()
    };
    let sum: BigDecimal = weights.iter().map(|w| w.0.clone()).sum();
    if &sum > stock_qty {
        return Err(not_allowed(
            &format!("{p}spools"),
            format!(
                "The spools weigh {} g but only {} g were received",
                sum.normalized(),
                stock_qty.normalized()
            ),
        ));
    }
    for (k, (grams, given)) in weights.into_iter().enumerate() {
        let base = lot_number
            .clone()
            .unwrap_or_else(|| rc.po.po_number.clone());
        let spool = crate::ledgers::spools::rules::create(
            conn,
            SpoolCreateInput {
                spool_number: given
                    .and_then(|g| g.spool_number.clone())
                    .unwrap_or_else(|| format!("{base}-{:02}", k + 1)),
                product_id: item.id,
                initial_weight_grams: Decimal(grams),
                current_weight_grams: None,
                location_id: Some(rc.location_id),
                supplier_lot_number: given
                    .and_then(|g| g.supplier_lot_number.clone())
                    .or_else(|| r.vendor_lot_number.clone())
                    .or_else(|| lot_number.clone()),
                received_date: Some(rc.date),
                expiry_date: given.and_then(|g| g.expiry_date),
                notes: given.and_then(|g| g.notes.clone()),
            },
            rc.user,
        )
        .await
        .map_err(|stop| match stop {
            Stop::Refused(errs) => Stop::Refused(
                errs.into_iter()
                    .map(|mut e| {
                        e.field = Some(format!("{p}spools.{k}.{}", e.field.unwrap_or_default()));
                        e
                    })
                    .collect(),
            ),
            other => other,
        })?;
        // The spool's lot, for traceability (lot -> spool -> production order).
        if lot_id.is_some() {
            diesel::update(spools::table.find(spool.id))
                .set(spools::material_lot_id.eq(lot_id))
                .execute(conn)
                .await?;
        }
        spools_created.push(spool.spool_number);
    }
    Ok(spools_created)
}

/// What one receipt shares across its lines.
struct Receipt<'a> {
    po: &'a PurchaseOrderRow,
    location_id: i64,
    date: NaiveDate,
    user: i64,
}

/// What receiving one line did.
#[derive(Default)]
struct LineReceived {
    transactions: Vec<i64>,
    lot: Option<String>,
    spools: Vec<String>,
}

/// The item a line buys and how many stocking units one purchase unit is (`p`: the line's
/// field prefix in errors).
async fn item_and_factor(
    conn: &mut AsyncPgConnection,
    line: &PurchaseOrderLineRow,
    p: &str,
) -> Result<(PurchasedItem, BigDecimal), Stop> {
    let Some(item) = purchased_item(conn, line.product_id).await? else {
        return Err(Stop::refuse(
            &format!("{p}lineId"),
            UserErrorCode::NotFound,
            "Product not found",
        ));
    };
    let (Some(purchase), Some(stock)) = (
        unit(conn, &line.purchase_unit).await?,
        unit(conn, &item.unit).await?,
    ) else {
        return Err(not_allowed(
            &format!("{p}lineId"),
            "The line's unit is unknown",
        ));
    };
    let Some(factor) = stock_factor(&item, &purchase, &stock) else {
        return Err(not_allowed(
            &format!("{p}lineId"),
            format!("Cannot convert {} to {}", purchase.code, stock.code),
        ));
    };
    Ok((item, factor))
}

/// Receives one line: its stock (converted to the stocking unit at the line's cost), its
/// lot, its spools, the line's received quantity and the vendor item; the value goes onto
/// the receipt's journal entry draft.
async fn receive_line(
    conn: &mut AsyncPgConnection,
    rc: &Receipt<'_>,
    (i, r, line): (usize, &ReceiveLineInput, &PurchaseOrderLineRow),
    mut draft: EntryDraft,
) -> Result<(EntryDraft, LineReceived), Stop> {
    let Receipt {
        po,
        location_id,
        date,
        user,
    } = *rc;
    let p = format!("lines.{i}.");
    let mut transactions = Vec::new();
    let mut spools_created = Vec::new();
    let (item, factor) = item_and_factor(conn, line, &p).await?;
    let qty = &r.quantity_received.0;
    let stock_qty = (qty * &factor).with_scale_round(QUANTITY_SCALE, RoundingMode::HalfEven);
    let stock_cost =
        (&line.unit_cost.0 / &factor).with_scale_round(COST_SCALE, RoundingMode::HalfUp);
    let lot_number = lot_of_line(conn, &item, r, date, &p).await?;
    let movement = Movement {
        reference_type: Some(ReferenceType::PurchaseOrder),
        reference_id: Some(po.id),
        lot_number: lot_number.clone(),
        notes: Some(format!("{} line {}", po.po_number, line.line_number)),
        created_by: Some(user),
        ..Movement::new(
            item.id,
            location_id,
            MovementKind::Receipt {
                unit_cost: Some(stock_cost.clone()),
            },
            stock_qty.clone(),
        )
    };
    let posted = ledger::post(conn, &movement).await?;
    let transaction = <[_]>::first(&posted.transactions).map(|t| t.id);
    transactions.extend(posted.transactions.iter().map(|t| t.id));
    draft = draft.transfer(
        posted.account,
        SystemAccount::AccountsPayable,
        &posted.value,
        Some(format!(
            "{} line {}: {}",
            po.po_number, line.line_number, item.sku
        )),
    );
    let mut lot_id = None;
    if let Some(number) = &lot_number {
        let id: i64 = diesel::insert_into(material_lots::table)
            .values(NewLot {
                lot_number: number.clone(),
                product_id: item.id,
                vendor_id: Some(po.vendor_id),
                purchase_order_id: Some(po.id),
                purchase_order_line_id: Some(line.id),
                vendor_lot_number: r.vendor_lot_number.clone(),
                quantity_received: stock_qty.clone(),
                received_date: date,
                unit_cost: Some(stock_cost.clone()),
                location_id: Some(location_id),
                inventory_transaction_id: transaction,
                notes: r.notes.clone(),
                created_by: Some(user),
            })
            .returning(material_lots::id)
            .get_result(conn)
            .await?;
        lot_id = Some(id);
    }
    if r.create_spools || !r.spools.is_empty() {
        spools_created.extend(
            receive_spools(
                conn,
                rc,
                &item,
                r,
                &p,
                (qty, &factor, &stock_qty),
                &lot_number,
                lot_id,
            )
            .await?,
        );
    }
    diesel::update(purchase_order_lines::table.find(line.id))
        .set(
            purchase_order_lines::quantity_received
                .eq(purchase_order_lines::quantity_received + qty.with_scale(QUANTITY_SCALE)),
        )
        .execute(conn)
        .await?;
    remember_vendor_item(conn, po, line, date).await?;
    Ok((
        draft,
        LineReceived {
            transactions,
            lot: lot_number,
            spools: spools_created,
        },
    ))
}

/// Receives goods against an order in the caller's transaction (see the module docs).
pub async fn receive(
    conn: &mut AsyncPgConnection,
    id: i64,
    mut input: PurchaseReceiveInput,
    user: i64,
) -> Result<PurchaseReceipt, Stop> {
    check_receipt(&mut input)?;
    // The order and its lines stay locked until commit: a second receipt waits here and
    // then sees what this one received.
    let po = locked(conn, id).await?;
    if !matches!(
        po.status,
        PurchaseOrderStatus::Ordered | PurchaseOrderStatus::Shipped | PurchaseOrderStatus::Received
    ) {
        return Err(not_allowed(
            "id",
            format!("Cannot receive items on PO in '{}' status", po.status),
        ));
    }
    let lines: HashMap<i64, PurchaseOrderLineRow> = model::lock_lines(conn, id)
        .await?
        .into_iter()
        .map(|l| (l.id, l))
        .collect();
    check_against_order(&po, &lines, &input)?;
    let location_id = receipt_location(conn, input.location_id).await?;
    let date = input.received_date.unwrap_or_else(today);
    let rc = Receipt {
        po: &po,
        location_id,
        date,
        user,
    };

    let mut draft = EntryDraft::new(date, format!("Receipt against {}", po.po_number))
        .source(SourceType::PurchaseOrder, Some(po.id))
        .by(Some(user));
    let mut transactions = Vec::new();
    let mut lots_created = Vec::new();
    let mut spools_created = Vec::new();
    let mut total = BigDecimal::zero();
    for (i, r) in input.lines.iter().enumerate() {
        let Some(line) = lines.get(&r.line_id) else {
            continue;
        };
        let (next, received) = receive_line(conn, &rc, (i, r, line), draft).await?;
        draft = next;
        transactions.extend(received.transactions);
        lots_created.extend(received.lot);
        spools_created.extend(received.spools);
        total += &r.quantity_received.0;
    }
    let entry = books::post(conn, draft).await?.map(|e| e.id);
    if let Some(entry) = entry {
        ledger::link_journal_entry(conn, &transactions, entry).await?;
    }
    let description = format!(
        "Received {} line(s){}",
        input.lines.len(),
        input
            .notes
            .as_deref()
            .map(|n| format!(": {n}"))
            .unwrap_or_default()
    );
    event_noting(
        conn,
        po.id,
        PurchaseEventType::Receipt,
        "Items Received",
        Some(description),
        None,
        Some(user),
        Some(("quantity_received", total.normalized().to_string())),
    )
    .await?;
    let complete = model::lines_of(conn, &[po.id])
        .await?
        .iter()
        .all(|l| l.quantity_received.0 >= l.quantity_ordered.0);
    let order = if complete && po.status != PurchaseOrderStatus::Received {
        set_status(
            conn,
            &po,
            PurchaseOrderStatus::Received,
            None,
            None,
            date,
            user,
        )
        .await?
    } else {
        model::find(conn, po.id).await?
    };
    Ok(PurchaseReceipt {
        po_number: po.po_number.clone(),
        lines_received: input.lines.len() as i32,
        total_quantity: Decimal(total.normalized()),
        inventory_updated: !transactions.is_empty(),
        transactions_created: transactions,
        spools_created,
        material_lots_created: lots_created,
        journal_entry_id: entry,
        purchase_order: order,
    })
}
