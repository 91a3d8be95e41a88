//! The diesel table definitions, matching `migrations/`. Kept by hand (no libpq for the
//! diesel CLI's `print-schema`); a test compares them with the migrated database.

diesel::table! {
    service_metadata (key) {
        key -> Text,
        value -> Text,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    users (id) {
        id -> Int8,
        email -> Text,
        password_hash -> Text,
        first_name -> Nullable<Text>,
        last_name -> Nullable<Text>,
        company_name -> Nullable<Text>,
        phone -> Nullable<Text>,
        account_type -> Text,
        status -> Text,
        email_verified -> Bool,
        session_version -> Int4,
        last_login_at -> Nullable<Timestamptz>,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    refresh_tokens (id) {
        id -> Int8,
        user_id -> Int8,
        token_hash -> Text,
        family_id -> Uuid,
        expires_at -> Timestamptz,
        revoked -> Bool,
        revoked_at -> Nullable<Timestamptz>,
        replaced_by_id -> Nullable<Int8>,
        user_agent -> Nullable<Text>,
        ip_address -> Nullable<Text>,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    password_reset_requests (id) {
        id -> Int8,
        user_id -> Int8,
        token_hash -> Text,
        approval_token_hash -> Text,
        status -> Text,
        expires_at -> Timestamptz,
        admin_notified_at -> Nullable<Timestamptz>,
        approved_at -> Nullable<Timestamptz>,
        denied_at -> Nullable<Timestamptz>,
        completed_at -> Nullable<Timestamptz>,
        admin_notes -> Nullable<Text>,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    security_audit_log (id) {
        id -> Int8,
        event_type -> Text,
        outcome -> Text,
        user_id -> Nullable<Int8>,
        user_email -> Nullable<Text>,
        ip_address -> Nullable<Text>,
        user_agent -> Nullable<Text>,
        request_id -> Nullable<Text>,
        details -> Jsonb,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    units_of_measure (id) {
        id -> Int8,
        code -> Text,
        name -> Text,
        symbol -> Text,
        uom_class -> Text,
        base_unit_code -> Nullable<Text>,
        to_base_factor -> Numeric,
        active -> Bool,
    }
}

diesel::table! {
    item_categories (id) {
        id -> Int8,
        code -> Text,
        name -> Text,
        parent_id -> Nullable<Int8>,
        description -> Nullable<Text>,
        sort_order -> Int4,
        active -> Bool,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
        path -> Nullable<Text>,
    }
}

diesel::table! {
    items (id) {
        id -> Int8,
        sku -> Text,
        name -> Text,
        description -> Nullable<Text>,
        category_id -> Nullable<Int8>,
        item_type -> Text,
        procurement_type -> Text,
        unit -> Text,
        purchase_uom -> Text,
        purchase_factor -> Numeric,
        cost_method -> Text,
        standard_cost -> Nullable<Numeric>,
        average_cost -> Nullable<Numeric>,
        last_cost -> Nullable<Numeric>,
        selling_price -> Nullable<Numeric>,
        weight_oz -> Nullable<Numeric>,
        length_in -> Nullable<Numeric>,
        width_in -> Nullable<Numeric>,
        height_in -> Nullable<Numeric>,
        lead_time_days -> Nullable<Int4>,
        min_order_qty -> Nullable<Numeric>,
        reorder_point -> Nullable<Numeric>,
        reorder_qty -> Nullable<Numeric>,
        stocking_policy -> Text,
        upc -> Nullable<Text>,
        legacy_sku -> Nullable<Text>,
        image_url -> Nullable<Text>,
        is_raw_material -> Bool,
        track_lots -> Bool,
        track_serials -> Bool,
        active -> Bool,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
        safety_stock -> Numeric,
        parent_product_id -> Nullable<Int8>,
        is_template -> Bool,
        variant_material_type_id -> Nullable<Int8>,
        variant_color_id -> Nullable<Int8>,
    }
}

diesel::table! {
    item_files (id) {
        id -> Int8,
        item_id -> Int8,
        original_name -> Text,
        stored_name -> Text,
        content_type -> Text,
        size_bytes -> Int8,
        sha256 -> Text,
        uploaded_by -> Nullable<Int8>,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    vendors (id) {
        id -> Int8,
        code -> Text,
        name -> Text,
        contact_name -> Nullable<Text>,
        email -> Nullable<Text>,
        phone -> Nullable<Text>,
        website -> Nullable<Text>,
        address_line1 -> Nullable<Text>,
        address_line2 -> Nullable<Text>,
        city -> Nullable<Text>,
        state -> Nullable<Text>,
        postal_code -> Nullable<Text>,
        country -> Nullable<Text>,
        payment_terms -> Nullable<Text>,
        account_number -> Nullable<Text>,
        tax_id -> Nullable<Text>,
        lead_time_days -> Nullable<Int4>,
        rating -> Nullable<Int4>,
        notes -> Nullable<Text>,
        is_active -> Bool,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    customers (id) {
        id -> Int8,
        customer_number -> Text,
        email -> Text,
        first_name -> Text,
        last_name -> Text,
        company_name -> Nullable<Text>,
        phone -> Nullable<Text>,
        status -> Text,
        billing_address_line1 -> Nullable<Text>,
        billing_address_line2 -> Nullable<Text>,
        billing_city -> Nullable<Text>,
        billing_state -> Nullable<Text>,
        billing_zip -> Nullable<Text>,
        billing_country -> Nullable<Text>,
        shipping_address_line1 -> Nullable<Text>,
        shipping_address_line2 -> Nullable<Text>,
        shipping_city -> Nullable<Text>,
        shipping_state -> Nullable<Text>,
        shipping_zip -> Nullable<Text>,
        shipping_country -> Nullable<Text>,
        notes -> Nullable<Text>,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
        payment_terms -> Text,
        credit_limit -> Nullable<Numeric>,
        approved_for_terms -> Bool,
        approved_for_terms_at -> Nullable<Timestamptz>,
        approved_for_terms_by -> Nullable<Int8>,
        tax_exempt -> Bool,
        tax_exempt_certificate -> Nullable<Text>,
        tax_rate_id -> Nullable<Int8>,
        price_level_id -> Nullable<Int8>,
    }
}

diesel::table! {
    price_levels (id) {
        id -> Int8,
        name -> Text,
        discount_percent -> Numeric,
        description -> Nullable<Text>,
        is_active -> Bool,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    price_level_items (price_level_id, item_id) {
        price_level_id -> Int8,
        item_id -> Int8,
        unit_price -> Numeric,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    tax_rates (id) {
        id -> Int8,
        name -> Text,
        rate -> Numeric,
        description -> Nullable<Text>,
        region -> Nullable<Text>,
        is_default -> Bool,
        is_active -> Bool,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    locations (id) {
        id -> Int8,
        code -> Text,
        name -> Text,
        #[sql_name = "type"]
        kind -> Text,
        parent_id -> Nullable<Int8>,
        active -> Bool,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    printers (id) {
        id -> Int8,
        code -> Text,
        name -> Text,
        model -> Text,
        brand -> Text,
        serial_number -> Nullable<Text>,
        ip_address -> Nullable<Text>,
        mqtt_topic -> Nullable<Text>,
        location -> Nullable<Text>,
        notes -> Nullable<Text>,
        status -> Text,
        connection_config -> Jsonb,
        capabilities -> Jsonb,
        last_seen -> Nullable<Timestamptz>,
        active -> Bool,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
        work_center_id -> Nullable<Int8>,
    }
}

diesel::table! {
    scrap_reasons (id) {
        id -> Int8,
        code -> Text,
        name -> Text,
        description -> Nullable<Text>,
        sequence -> Int4,
        active -> Bool,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    company_settings (id) {
        id -> Int4,
        company_name -> Nullable<Text>,
        company_address_line1 -> Nullable<Text>,
        company_address_line2 -> Nullable<Text>,
        company_city -> Nullable<Text>,
        company_state -> Nullable<Text>,
        company_zip -> Nullable<Text>,
        company_country -> Nullable<Text>,
        company_phone -> Nullable<Text>,
        company_email -> Nullable<Text>,
        company_website -> Nullable<Text>,
        logo_filename -> Nullable<Text>,
        tax_enabled -> Bool,
        tax_rate -> Numeric,
        tax_name -> Nullable<Text>,
        tax_registration_number -> Nullable<Text>,
        default_quote_validity_days -> Int4,
        quote_terms -> Nullable<Text>,
        quote_footer -> Nullable<Text>,
        timezone -> Text,
        business_hours_start -> Int4,
        business_hours_end -> Int4,
        business_days_per_week -> Int4,
        business_work_days -> Text,
        currency_code -> Text,
        locale -> Text,
        allow_negative_inventory -> Bool,
        quality_mode -> Text,
        quality_gate_action -> Text,
        default_margin_percent -> Nullable<Numeric>,
        updated_at -> Timestamptz,
    }
}

diesel::joinable!(refresh_tokens -> users (user_id));
diesel::joinable!(password_reset_requests -> users (user_id));
diesel::joinable!(items -> item_categories (category_id));
diesel::joinable!(item_files -> items (item_id));

diesel::table! {
    idempotency_keys (user_id, key) {
        user_id -> Int8,
        key -> Text,
        request_fingerprint -> Text,
        status -> Nullable<Int2>,
        content_type -> Nullable<Text>,
        response_body -> Nullable<Bytea>,
        location -> Nullable<Text>,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    gl_accounts (id) {
        id -> Int8,
        account_code -> Text,
        name -> Text,
        account_type -> Text,
        schedule_c_line -> Nullable<Text>,
        parent_id -> Nullable<Int8>,
        is_system -> Bool,
        active -> Bool,
        description -> Nullable<Text>,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    gl_fiscal_periods (id) {
        id -> Int8,
        year -> Int4,
        period -> Int4,
        start_date -> Date,
        end_date -> Date,
        status -> Text,
        closed_by -> Nullable<Int8>,
        closed_at -> Nullable<Timestamptz>,
    }
}

diesel::table! {
    gl_journal_entries (id) {
        id -> Int8,
        entry_number -> Text,
        entry_date -> Date,
        description -> Text,
        source_type -> Nullable<Text>,
        source_id -> Nullable<Int8>,
        status -> Text,
        fiscal_period_id -> Int8,
        created_by -> Nullable<Int8>,
        posted_by -> Nullable<Int8>,
        posted_at -> Nullable<Timestamptz>,
        voided_by -> Nullable<Int8>,
        voided_at -> Nullable<Timestamptz>,
        void_reason -> Nullable<Text>,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    gl_journal_entry_lines (id) {
        id -> Int8,
        journal_entry_id -> Int8,
        account_id -> Int8,
        debit_amount -> Numeric,
        credit_amount -> Numeric,
        memo -> Nullable<Text>,
        line_order -> Int4,
    }
}

diesel::table! {
    inventory_balances (item_id, location_id) {
        id -> Int8,
        item_id -> Int8,
        location_id -> Int8,
        on_hand_quantity -> Numeric,
        allocated_quantity -> Numeric,
        available_quantity -> Numeric,
        last_counted_at -> Nullable<Timestamptz>,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    inventory_transactions (id) {
        id -> Int8,
        item_id -> Int8,
        location_id -> Int8,
        transaction_type -> Text,
        quantity -> Numeric,
        affects_on_hand -> Bool,
        unit -> Text,
        cost_per_unit -> Nullable<Numeric>,
        total_cost -> Nullable<Numeric>,
        reference_type -> Nullable<Text>,
        reference_id -> Nullable<Int8>,
        lot_number -> Nullable<Text>,
        serial_number -> Nullable<Text>,
        reason -> Nullable<Text>,
        notes -> Nullable<Text>,
        to_location_id -> Nullable<Int8>,
        journal_entry_id -> Nullable<Int8>,
        requires_approval -> Bool,
        approved_by -> Nullable<Int8>,
        approved_at -> Nullable<Timestamptz>,
        created_by -> Nullable<Int8>,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    material_types (id) {
        id -> Int8,
        code -> Text,
        name -> Text,
        description -> Nullable<Text>,
        active -> Bool,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
        requires_enclosure -> Bool,
        nozzle_temp_c -> Nullable<Int4>,
        bed_temp_c -> Nullable<Int4>,
        density_g_cm3 -> Nullable<Numeric>,
        filament_diameter_mm -> Numeric,
        is_abrasive -> Bool,
    }
}

diesel::table! {
    colors (id) {
        id -> Int8,
        code -> Text,
        name -> Text,
        hex_code -> Nullable<Text>,
        active -> Bool,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    material_colors (id) {
        id -> Int8,
        material_type_id -> Int8,
        color_id -> Int8,
        item_id -> Nullable<Int8>,
        active -> Bool,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    spools (id) {
        id -> Int8,
        spool_number -> Text,
        product_id -> Int8,
        initial_weight_g -> Numeric,
        current_weight_g -> Numeric,
        status -> Text,
        received_date -> Date,
        expiry_date -> Nullable<Date>,
        location_id -> Nullable<Int8>,
        supplier_lot_number -> Nullable<Text>,
        notes -> Nullable<Text>,
        created_by -> Nullable<Int8>,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
        material_lot_id -> Nullable<Int8>,
    }
}

diesel::table! {
    spool_usage (id) {
        id -> Int8,
        spool_id -> Int8,
        production_order_id -> Nullable<Int8>,
        production_order_code -> Nullable<Text>,
        weight_consumed_g -> Numeric,
        inventory_transaction_id -> Nullable<Int8>,
        created_by -> Nullable<Int8>,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    purchase_orders (id) {
        id -> Int8,
        po_number -> Text,
        vendor_id -> Int8,
        status -> Text,
        order_date -> Nullable<Date>,
        expected_date -> Nullable<Date>,
        shipped_date -> Nullable<Date>,
        received_date -> Nullable<Date>,
        tracking_number -> Nullable<Text>,
        carrier -> Nullable<Text>,
        subtotal -> Numeric,
        tax_amount -> Numeric,
        shipping_cost -> Numeric,
        total_amount -> Numeric,
        payment_method -> Nullable<Text>,
        payment_reference -> Nullable<Text>,
        document_url -> Nullable<Text>,
        notes -> Nullable<Text>,
        created_by -> Nullable<Int8>,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    purchase_order_lines (id) {
        id -> Int8,
        purchase_order_id -> Int8,
        line_number -> Int4,
        product_id -> Int8,
        quantity_ordered -> Numeric,
        quantity_received -> Numeric,
        unit_cost -> Numeric,
        purchase_unit -> Text,
        notes -> Nullable<Text>,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    purchase_order_events (id) {
        id -> Int8,
        purchase_order_id -> Int8,
        event_type -> Text,
        title -> Text,
        description -> Nullable<Text>,
        old_status -> Nullable<Text>,
        new_status -> Nullable<Text>,
        created_by -> Nullable<Int8>,
        metadata_key -> Nullable<Text>,
        metadata_value -> Nullable<Text>,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    purchase_order_documents (id) {
        id -> Int8,
        purchase_order_id -> Int8,
        document_type -> Text,
        original_name -> Text,
        stored_name -> Text,
        content_type -> Text,
        size_bytes -> Int8,
        notes -> Nullable<Text>,
        uploaded_by -> Nullable<Int8>,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    material_lots (id) {
        id -> Int8,
        lot_number -> Text,
        product_id -> Int8,
        vendor_id -> Nullable<Int8>,
        purchase_order_id -> Nullable<Int8>,
        purchase_order_line_id -> Nullable<Int8>,
        vendor_lot_number -> Nullable<Text>,
        quantity_received -> Numeric,
        quantity_consumed -> Numeric,
        quantity_scrapped -> Numeric,
        quantity_adjusted -> Numeric,
        status -> Text,
        inspection_status -> Text,
        received_date -> Date,
        expiration_date -> Nullable<Date>,
        unit_cost -> Nullable<Numeric>,
        location_id -> Nullable<Int8>,
        inventory_transaction_id -> Nullable<Int8>,
        notes -> Nullable<Text>,
        created_by -> Nullable<Int8>,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    vendor_items (id) {
        id -> Int8,
        vendor_id -> Int8,
        item_id -> Int8,
        vendor_sku -> Nullable<Text>,
        last_price -> Nullable<Numeric>,
        purchase_unit -> Nullable<Text>,
        lead_time_days -> Nullable<Int4>,
        is_preferred -> Bool,
        last_ordered_at -> Nullable<Timestamptz>,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
        min_order_qty -> Nullable<Numeric>,
        pack_size -> Nullable<Numeric>,
    }
}

diesel::joinable!(gl_journal_entry_lines -> gl_journal_entries (journal_entry_id));
diesel::joinable!(gl_journal_entry_lines -> gl_accounts (account_id));
diesel::joinable!(gl_journal_entries -> gl_fiscal_periods (fiscal_period_id));
diesel::joinable!(inventory_balances -> items (item_id));
diesel::joinable!(inventory_balances -> locations (location_id));
diesel::joinable!(inventory_transactions -> items (item_id));
diesel::joinable!(inventory_transactions -> locations (location_id));
diesel::joinable!(material_colors -> material_types (material_type_id));
diesel::joinable!(material_colors -> colors (color_id));
diesel::joinable!(material_colors -> items (item_id));
diesel::joinable!(spools -> items (product_id));
diesel::joinable!(spools -> material_lots (material_lot_id));
diesel::joinable!(spools -> locations (location_id));
diesel::joinable!(spool_usage -> spools (spool_id));

diesel::table! {
    boms (id) {
        id -> Int8,
        product_id -> Int8,
        code -> Text,
        name -> Text,
        version -> Int4,
        revision -> Nullable<Text>,
        active -> Bool,
        assembly_time_minutes -> Nullable<Numeric>,
        effective_date -> Nullable<Date>,
        notes -> Nullable<Text>,
        process_cost -> Numeric,
        material_cost -> Numeric,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    bom_lines (id) {
        id -> Int8,
        bom_id -> Int8,
        component_id -> Int8,
        quantity -> Numeric,
        unit -> Text,
        sequence -> Int4,
        consume_stage -> Text,
        is_cost_only -> Bool,
        scrap_factor -> Numeric,
        notes -> Nullable<Text>,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::joinable!(boms -> items (product_id));
diesel::joinable!(bom_lines -> boms (bom_id));
diesel::joinable!(bom_lines -> items (component_id));

diesel::joinable!(purchase_orders -> vendors (vendor_id));
diesel::joinable!(purchase_order_lines -> purchase_orders (purchase_order_id));
diesel::joinable!(purchase_order_lines -> items (product_id));
diesel::joinable!(vendor_items -> vendors (vendor_id));
diesel::joinable!(vendor_items -> items (item_id));
diesel::table! {
    work_centers (id) {
        id -> Int8,
        code -> Text,
        name -> Text,
        center_type -> Text,
        hourly_rate -> Numeric,
        description -> Nullable<Text>,
        active -> Bool,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    routings (id) {
        id -> Int8,
        product_id -> Nullable<Int8>,
        code -> Text,
        name -> Text,
        version -> Int4,
        active -> Bool,
        notes -> Nullable<Text>,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
        is_template -> Bool,
        revision -> Text,
        effective_date -> Nullable<Date>,
    }
}

diesel::table! {
    routing_operations (id) {
        id -> Int8,
        routing_id -> Int8,
        sequence -> Int4,
        operation_code -> Text,
        operation_name -> Text,
        work_center_id -> Int8,
        setup_minutes -> Numeric,
        run_minutes -> Numeric,
        notes -> Nullable<Text>,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
        operation_type -> Nullable<Text>,
        description -> Nullable<Text>,
        wait_minutes -> Numeric,
        move_minutes -> Numeric,
        runtime_source -> Text,
        slicer_file_path -> Nullable<Text>,
        units_per_cycle -> Int4,
        scrap_rate_percent -> Numeric,
        is_active -> Bool,
    }
}

diesel::table! {
    operation_types (id) {
        id -> Int8,
        code -> Text,
        label -> Text,
        description -> Nullable<Text>,
        category -> Nullable<Text>,
        consume_stages -> Array<Text>,
        is_qc -> Bool,
        is_system -> Bool,
        is_active -> Bool,
        sort_order -> Int4,
        default_work_center_id -> Nullable<Int8>,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    routing_operation_materials (id) {
        id -> Int8,
        routing_operation_id -> Int8,
        component_id -> Int8,
        quantity -> Numeric,
        quantity_per -> Text,
        unit -> Text,
        scrap_factor -> Numeric,
        is_cost_only -> Bool,
        is_optional -> Bool,
        is_variable -> Bool,
        notes -> Nullable<Text>,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::joinable!(routing_operation_materials -> routing_operations (routing_operation_id));
diesel::joinable!(routing_operation_materials -> items (component_id));
diesel::joinable!(operation_types -> work_centers (default_work_center_id));

diesel::table! {
    production_orders (id) {
        id -> Int8,
        code -> Text,
        product_id -> Int8,
        bom_id -> Nullable<Int8>,
        routing_id -> Nullable<Int8>,
        sales_order_id -> Nullable<Int8>,
        sales_order_line_id -> Nullable<Int8>,
        location_id -> Int8,
        quantity_ordered -> Numeric,
        quantity_completed -> Numeric,
        quantity_scrapped -> Numeric,
        source -> Text,
        order_type -> Text,
        status -> Text,
        priority -> Int4,
        qc_status -> Text,
        qc_notes -> Nullable<Text>,
        qc_inspected_by -> Nullable<Int8>,
        qc_inspected_at -> Nullable<Timestamptz>,
        due_date -> Nullable<Date>,
        scheduled_start -> Nullable<Timestamptz>,
        scheduled_end -> Nullable<Timestamptz>,
        actual_start -> Nullable<Timestamptz>,
        actual_end -> Nullable<Timestamptz>,
        estimated_time_minutes -> Numeric,
        estimated_material_cost -> Numeric,
        estimated_labor_cost -> Numeric,
        actual_material_cost -> Numeric,
        actual_labor_cost -> Numeric,
        assigned_to -> Nullable<Text>,
        notes -> Nullable<Text>,
        remake_of_id -> Nullable<Int8>,
        remake_reason -> Nullable<Text>,
        scrap_reason -> Nullable<Text>,
        parent_id -> Nullable<Int8>,
        created_by -> Nullable<Int8>,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
        released_at -> Nullable<Timestamptz>,
        completed_at -> Nullable<Timestamptz>,
    }
}

diesel::table! {
    production_order_operations (id) {
        id -> Int8,
        production_order_id -> Int8,
        routing_operation_id -> Nullable<Int8>,
        work_center_id -> Int8,
        printer_id -> Nullable<Int8>,
        sequence -> Int4,
        operation_code -> Text,
        operation_name -> Text,
        status -> Text,
        quantity_completed -> Numeric,
        quantity_scrapped -> Numeric,
        planned_setup_minutes -> Numeric,
        planned_run_minutes -> Numeric,
        actual_setup_minutes -> Nullable<Numeric>,
        actual_run_minutes -> Nullable<Numeric>,
        scheduled_start -> Nullable<Timestamptz>,
        scheduled_end -> Nullable<Timestamptz>,
        actual_start -> Nullable<Timestamptz>,
        actual_end -> Nullable<Timestamptz>,
        operator_name -> Nullable<Text>,
        notes -> Nullable<Text>,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
        bambu_task_id -> Nullable<Text>,
        bambu_plate_index -> Nullable<Int4>,
        resource_id -> Nullable<Int8>,
        operation_type -> Nullable<Text>,
    }
}

diesel::table! {
    production_order_materials (id) {
        id -> Int8,
        production_order_id -> Int8,
        operation_id -> Nullable<Int8>,
        bom_line_id -> Nullable<Int8>,
        component_id -> Int8,
        quantity_required -> Numeric,
        quantity_allocated -> Numeric,
        quantity_consumed -> Numeric,
        unit -> Text,
        location_id -> Int8,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    production_order_spools (id) {
        id -> Int8,
        production_order_id -> Int8,
        spool_id -> Int8,
        weight_consumed_g -> Numeric,
        created_by -> Nullable<Int8>,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    serial_numbers (id) {
        id -> Int8,
        serial_number -> Text,
        product_id -> Int8,
        production_order_id -> Nullable<Int8>,
        status -> Text,
        qc_passed -> Bool,
        qc_date -> Nullable<Timestamptz>,
        qc_notes -> Nullable<Text>,
        sales_order_id -> Nullable<Int8>,
        sales_order_line_id -> Nullable<Int8>,
        sold_at -> Nullable<Timestamptz>,
        shipped_at -> Nullable<Timestamptz>,
        tracking_number -> Nullable<Text>,
        returned_at -> Nullable<Timestamptz>,
        return_reason -> Nullable<Text>,
        manufactured_at -> Timestamptz,
        created_at -> Timestamptz,
        shipment_id -> Nullable<Int8>,
    }
}

diesel::joinable!(printers -> work_centers (work_center_id));
diesel::joinable!(routings -> items (product_id));
diesel::joinable!(routing_operations -> routings (routing_id));
diesel::joinable!(routing_operations -> work_centers (work_center_id));
diesel::joinable!(production_orders -> items (product_id));
diesel::joinable!(production_order_operations -> production_orders (production_order_id));
diesel::joinable!(production_order_operations -> work_centers (work_center_id));
diesel::joinable!(production_order_operations -> printers (printer_id));
diesel::joinable!(production_order_materials -> production_orders (production_order_id));
diesel::joinable!(production_order_materials -> items (component_id));
diesel::joinable!(production_order_spools -> production_orders (production_order_id));
diesel::joinable!(production_order_spools -> spools (spool_id));
diesel::joinable!(serial_numbers -> production_orders (production_order_id));

diesel::table! {
    quotes (id) {
        id -> Int8,
        quote_number -> Text,
        user_id -> Nullable<Int8>,
        product_id -> Nullable<Int8>,
        product_name -> Text,
        description -> Nullable<Text>,
        quantity -> Int4,
        unit_price -> Numeric,
        subtotal -> Numeric,
        tax_rate -> Numeric,
        tax_amount -> Numeric,
        shipping_cost -> Numeric,
        total_price -> Numeric,
        status -> Text,
        customer_id -> Nullable<Int8>,
        customer_name -> Nullable<Text>,
        customer_email -> Nullable<Text>,
        material_type -> Text,
        color -> Nullable<Text>,
        customer_notes -> Nullable<Text>,
        admin_notes -> Nullable<Text>,
        rejection_reason -> Nullable<Text>,
        shipping_name -> Nullable<Text>,
        shipping_address_line1 -> Nullable<Text>,
        shipping_address_line2 -> Nullable<Text>,
        shipping_city -> Nullable<Text>,
        shipping_state -> Nullable<Text>,
        shipping_zip -> Nullable<Text>,
        shipping_country -> Nullable<Text>,
        shipping_phone -> Nullable<Text>,
        expires_at -> Timestamptz,
        approved_at -> Nullable<Timestamptz>,
        approved_by -> Nullable<Int8>,
        approval_method -> Nullable<Text>,
        converted_at -> Nullable<Timestamptz>,
        sales_order_id -> Nullable<Int8>,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
        image_filename -> Nullable<Text>,
        tax_rate_id -> Nullable<Int8>,
        tax_rate_name -> Nullable<Text>,
    }
}

diesel::table! {
    sales_orders (id) {
        id -> Int8,
        order_number -> Text,
        user_id -> Nullable<Int8>,
        customer_id -> Nullable<Int8>,
        quote_id -> Nullable<Int8>,
        order_type -> Text,
        source -> Text,
        source_order_id -> Nullable<Text>,
        status -> Text,
        payment_status -> Text,
        fulfillment_status -> Text,
        rush_level -> Text,
        product_name -> Nullable<Text>,
        customer_name -> Nullable<Text>,
        customer_email -> Nullable<Text>,
        customer_phone -> Nullable<Text>,
        subtotal -> Numeric,
        tax_rate -> Numeric,
        tax_amount -> Numeric,
        shipping_cost -> Numeric,
        grand_total -> Numeric,
        payment_method -> Nullable<Text>,
        payment_transaction_id -> Nullable<Text>,
        paid_at -> Nullable<Timestamptz>,
        shipping_address_line1 -> Nullable<Text>,
        shipping_address_line2 -> Nullable<Text>,
        shipping_city -> Nullable<Text>,
        shipping_state -> Nullable<Text>,
        shipping_zip -> Nullable<Text>,
        shipping_country -> Nullable<Text>,
        tracking_number -> Nullable<Text>,
        carrier -> Nullable<Text>,
        shipped_at -> Nullable<Timestamptz>,
        delivered_at -> Nullable<Timestamptz>,
        customer_notes -> Nullable<Text>,
        internal_notes -> Nullable<Text>,
        production_notes -> Nullable<Text>,
        cancelled_at -> Nullable<Timestamptz>,
        cancellation_reason -> Nullable<Text>,
        due_date -> Nullable<Date>,
        estimated_completion_date -> Nullable<Date>,
        actual_completion_date -> Nullable<Timestamptz>,
        confirmed_at -> Nullable<Timestamptz>,
        lines_total -> Int4,
        lines_ready -> Int4,
        fulfillment_state -> Text,
        fulfillment_priority -> Int4,
        fulfillment_percent -> Numeric,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
        tax_rate_id -> Nullable<Int8>,
        tax_rate_name -> Nullable<Text>,
    }
}

diesel::table! {
    sales_order_lines (id) {
        id -> Int8,
        sales_order_id -> Int8,
        line_number -> Int4,
        product_id -> Int8,
        quantity -> Int4,
        unit_price -> Numeric,
        discount -> Numeric,
        total -> Numeric,
        location_id -> Nullable<Int8>,
        quantity_allocated -> Numeric,
        quantity_shipped -> Numeric,
        notes -> Nullable<Text>,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
        list_price -> Nullable<Numeric>,
        price_level_name -> Nullable<Text>,
    }
}

diesel::table! {
    sales_order_events (id) {
        id -> Int8,
        sales_order_id -> Int8,
        event_type -> Text,
        title -> Text,
        description -> Nullable<Text>,
        old_status -> Nullable<Text>,
        new_status -> Nullable<Text>,
        created_by -> Nullable<Int8>,
        metadata_key -> Nullable<Text>,
        metadata_value -> Nullable<Text>,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    shipments (id) {
        id -> Int8,
        shipment_number -> Text,
        sales_order_id -> Int8,
        carrier -> Text,
        service -> Text,
        tracking_number -> Text,
        cost_of_goods -> Numeric,
        packaging_cost -> Numeric,
        shipped_at -> Timestamptz,
        created_by -> Nullable<Int8>,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    payments (id) {
        id -> Int8,
        payment_number -> Text,
        sales_order_id -> Int8,
        amount -> Numeric,
        payment_method -> Text,
        payment_type -> Text,
        status -> Text,
        transaction_id -> Nullable<Text>,
        check_number -> Nullable<Text>,
        notes -> Nullable<Text>,
        payment_date -> Timestamptz,
        recorded_by -> Nullable<Int8>,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::joinable!(sales_orders -> customers (customer_id));
diesel::joinable!(sales_order_lines -> sales_orders (sales_order_id));
diesel::joinable!(sales_order_lines -> items (product_id));
diesel::joinable!(sales_order_events -> sales_orders (sales_order_id));
diesel::joinable!(shipments -> sales_orders (sales_order_id));
diesel::joinable!(payments -> sales_orders (sales_order_id));

diesel::table! {
    order_messages (id) {
        id -> Int8,
        thread_id -> Uuid,
        thread_subject -> Nullable<Text>,
        sales_order_id -> Nullable<Int8>,
        sender_type -> Text,
        sender_name -> Nullable<Text>,
        body -> Text,
        source -> Text,
        created_by -> Nullable<Int8>,
        emailed_to -> Nullable<Text>,
        read_at -> Nullable<Timestamptz>,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    invoices (id) {
        id -> Int8,
        invoice_number -> Text,
        sales_order_id -> Int8,
        shipment_id -> Nullable<Int8>,
        customer_id -> Nullable<Int8>,
        customer_name -> Nullable<Text>,
        customer_email -> Nullable<Text>,
        customer_company -> Nullable<Text>,
        bill_to_line1 -> Nullable<Text>,
        bill_to_city -> Nullable<Text>,
        bill_to_state -> Nullable<Text>,
        bill_to_zip -> Nullable<Text>,
        payment_terms -> Text,
        invoice_date -> Date,
        due_date -> Date,
        subtotal -> Numeric,
        discount_amount -> Numeric,
        tax_rate -> Numeric,
        tax_amount -> Numeric,
        shipping_amount -> Numeric,
        total -> Numeric,
        status -> Text,
        amount_paid -> Numeric,
        paid_at -> Nullable<Timestamptz>,
        payment_method -> Nullable<Text>,
        payment_reference -> Nullable<Text>,
        sent_at -> Nullable<Timestamptz>,
        sent_to -> Nullable<Text>,
        voided_at -> Nullable<Timestamptz>,
        voided_by_id -> Nullable<Int8>,
        void_reason -> Nullable<Text>,
        journal_entry_id -> Nullable<Int8>,
        created_by -> Nullable<Int8>,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
        tax_rate_name -> Nullable<Text>,
    }
}

diesel::table! {
    invoice_lines (id) {
        id -> Int8,
        invoice_id -> Int8,
        sales_order_line_id -> Nullable<Int8>,
        product_id -> Nullable<Int8>,
        sku -> Nullable<Text>,
        description -> Text,
        quantity -> Numeric,
        unit_price -> Numeric,
        base_price -> Nullable<Numeric>,
        discount_percent -> Nullable<Numeric>,
        line_total -> Numeric,
    }
}

diesel::joinable!(invoices -> sales_orders (sales_order_id));
diesel::joinable!(order_messages -> sales_orders (sales_order_id));
diesel::joinable!(invoice_lines -> invoices (invoice_id));

diesel::table! {
    bulk_exports (id) {
        id -> Int8,
        user_id -> Int8,
        query -> Text,
        variables -> Jsonb,
        format -> Text,
        status -> Text,
        rows_written -> Int8,
        size_bytes -> Int8,
        error -> Nullable<Text>,
        storage_key -> Nullable<Text>,
        created_at -> Timestamptz,
        started_at -> Nullable<Timestamptz>,
        completed_at -> Nullable<Timestamptz>,
        expires_at -> Nullable<Timestamptz>,
    }
}

diesel::joinable!(bulk_exports -> users (user_id));

diesel::table! {
    production_lot_consumptions (id) {
        id -> Int8,
        production_order_id -> Int8,
        material_lot_id -> Int8,
        serial_number_id -> Nullable<Int8>,
        bom_line_id -> Nullable<Int8>,
        quantity_consumed -> Numeric,
        consumed_at -> Timestamptz,
        notes -> Nullable<Text>,
        created_by -> Nullable<Int8>,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    customer_traceability_profiles (id) {
        id -> Int8,
        customer_id -> Int8,
        traceability_level -> Text,
        requires_coc -> Bool,
        requires_coa -> Bool,
        requires_first_article -> Bool,
        record_retention_days -> Int4,
        custom_serial_prefix -> Nullable<Text>,
        compliance_standards -> Nullable<Text>,
        notes -> Nullable<Text>,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::joinable!(production_lot_consumptions -> material_lots (material_lot_id));
diesel::joinable!(customer_traceability_profiles -> customers (customer_id));

diesel::table! {
    shipping_events (id) {
        id -> Int8,
        sales_order_id -> Int8,
        shipment_id -> Nullable<Int8>,
        event_type -> Text,
        description -> Nullable<Text>,
        location -> Nullable<Text>,
        carrier -> Nullable<Text>,
        tracking_number -> Nullable<Text>,
        event_at -> Timestamptz,
        source -> Text,
        created_by -> Nullable<Int8>,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    printer_maintenance (id) {
        id -> Int8,
        printer_id -> Int8,
        maintenance_type -> Text,
        description -> Text,
        performed_by -> Nullable<Text>,
        performed_at -> Timestamptz,
        next_due_at -> Nullable<Timestamptz>,
        cost -> Nullable<Numeric>,
        downtime_minutes -> Nullable<Int4>,
        parts_used -> Nullable<Text>,
        notes -> Nullable<Text>,
        created_by -> Nullable<Int8>,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::joinable!(printer_maintenance -> printers (printer_id));

diesel::table! {
    resources (id) {
        id -> Int8,
        work_center_id -> Int8,
        code -> Text,
        name -> Text,
        machine_type -> Nullable<Text>,
        serial_number -> Nullable<Text>,
        bambu_device_id -> Nullable<Text>,
        bambu_ip_address -> Nullable<Text>,
        capacity_hours_per_day -> Nullable<Numeric>,
        status -> Text,
        is_active -> Bool,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    work_center_hours (id) {
        id -> Int8,
        work_center_id -> Int8,
        weekday -> Int2,
        opens_minute -> Int2,
        closes_minute -> Int2,
    }
}

diesel::table! {
    work_center_exceptions (id) {
        id -> Int8,
        work_center_id -> Int8,
        day -> Date,
        opens_minute -> Nullable<Int2>,
        closes_minute -> Nullable<Int2>,
        reason -> Nullable<Text>,
    }
}

diesel::table! {
    maintenance_windows (id) {
        id -> Int8,
        printer_id -> Nullable<Int8>,
        resource_id -> Nullable<Int8>,
        starts_at -> Timestamptz,
        ends_at -> Timestamptz,
        reason -> Nullable<Text>,
        status -> Text,
        maintenance_log_id -> Nullable<Int8>,
        created_by -> Nullable<Text>,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    mrp_runs (id) {
        id -> Int8,
        run_date -> Timestamptz,
        planning_horizon_days -> Int4,
        status -> Text,
        orders_processed -> Int4,
        components_analyzed -> Int4,
        shortages_found -> Int4,
        planned_orders_created -> Int4,
        exceptions_found -> Int4,
        error_message -> Nullable<Text>,
        completed_at -> Nullable<Timestamptz>,
        created_by -> Nullable<Int8>,
    }
}

diesel::table! {
    planned_orders (id) {
        id -> Int8,
        order_type -> Text,
        product_id -> Int8,
        quantity -> Numeric,
        due_date -> Date,
        start_date -> Date,
        vendor_id -> Nullable<Int8>,
        source_demand_type -> Nullable<Text>,
        source_demand_id -> Nullable<Int8>,
        mrp_run_id -> Nullable<Int8>,
        status -> Text,
        is_late -> Bool,
        converted_to_po_id -> Nullable<Int8>,
        converted_to_mo_id -> Nullable<Int8>,
        notes -> Nullable<Text>,
        created_at -> Timestamptz,
        firmed_at -> Nullable<Timestamptz>,
        released_at -> Nullable<Timestamptz>,
    }
}

diesel::table! {
    mrp_exceptions (id) {
        id -> Int8,
        mrp_run_id -> Int8,
        product_id -> Int8,
        kind -> Text,
        message -> Text,
        due_date -> Nullable<Date>,
        quantity -> Nullable<Numeric>,
        planned_order_id -> Nullable<Int8>,
    }
}

diesel::joinable!(resources -> work_centers (work_center_id));
diesel::joinable!(planned_orders -> items (product_id));
diesel::joinable!(mrp_exceptions -> items (product_id));

diesel::table! {
    defect_reasons (id) {
        id -> Int8,
        code -> Text,
        name -> Text,
        description -> Nullable<Text>,
        category -> Nullable<Text>,
        severity -> Nullable<Text>,
        sequence -> Int4,
        active -> Bool,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    quality_plans (id) {
        id -> Int8,
        product_id -> Nullable<Int8>,
        code -> Text,
        name -> Text,
        version -> Int4,
        revision -> Text,
        is_active -> Bool,
        is_template -> Bool,
        effective_date -> Nullable<Date>,
        notes -> Nullable<Text>,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    quality_plan_characteristics (id) {
        id -> Int8,
        quality_plan_id -> Int8,
        code -> Nullable<Text>,
        characteristic -> Text,
        characteristic_type -> Text,
        nominal -> Nullable<Numeric>,
        lower_limit -> Nullable<Numeric>,
        upper_limit -> Nullable<Numeric>,
        unit -> Nullable<Text>,
        acceptance_criteria -> Nullable<Text>,
        sequence -> Int4,
        severity -> Nullable<Text>,
        routing_operation_id -> Nullable<Int8>,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    qc_inspections (id) {
        id -> Int8,
        production_order_id -> Int8,
        production_operation_id -> Nullable<Int8>,
        result -> Text,
        quantity_passed -> Nullable<Numeric>,
        quantity_failed -> Nullable<Numeric>,
        failure_reason -> Nullable<Text>,
        notes -> Nullable<Text>,
        defect_reason_id -> Nullable<Int8>,
        quality_plan_id -> Nullable<Int8>,
        inspector_user_id -> Nullable<Int8>,
        waiver_user_id -> Nullable<Int8>,
        gate_findings -> Array<Text>,
        inspected_at -> Timestamptz,
    }
}

diesel::table! {
    qc_measurements (id) {
        id -> Int8,
        qc_inspection_id -> Int8,
        quality_plan_characteristic_id -> Nullable<Int8>,
        characteristic_code -> Nullable<Text>,
        characteristic -> Text,
        nominal -> Nullable<Numeric>,
        lower_limit -> Nullable<Numeric>,
        upper_limit -> Nullable<Numeric>,
        measured_value -> Nullable<Numeric>,
        unit -> Nullable<Text>,
        conforms -> Nullable<Bool>,
        sequence -> Int4,
    }
}

diesel::table! {
    qc_photos (id) {
        id -> Int8,
        qc_inspection_id -> Int8,
        file_name -> Text,
        caption -> Nullable<Text>,
        mime_type -> Text,
        file_size -> Int8,
        storage_key -> Text,
        uploaded_by -> Nullable<Int8>,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    scrap_records (id) {
        id -> Int8,
        production_order_id -> Int8,
        production_operation_id -> Nullable<Int8>,
        reason_code -> Nullable<Text>,
        quantity -> Numeric,
        total_cost -> Numeric,
        created_by -> Nullable<Int8>,
        created_at -> Timestamptz,
    }
}

diesel::joinable!(quality_plans -> items (product_id));
diesel::joinable!(quality_plan_characteristics -> quality_plans (quality_plan_id));
diesel::joinable!(qc_inspections -> production_orders (production_order_id));
diesel::joinable!(qc_inspections -> defect_reasons (defect_reason_id));
diesel::joinable!(qc_measurements -> qc_inspections (qc_inspection_id));
diesel::joinable!(qc_photos -> qc_inspections (qc_inspection_id));
diesel::joinable!(scrap_records -> production_orders (production_order_id));

diesel::allow_tables_to_appear_in_same_query!(
    order_messages,
    tax_rates,
    price_levels,
    price_level_items,
    defect_reasons,
    quality_plans,
    quality_plan_characteristics,
    qc_inspections,
    qc_measurements,
    qc_photos,
    scrap_records,
    resources,
    work_center_hours,
    work_center_exceptions,
    maintenance_windows,
    mrp_runs,
    planned_orders,
    mrp_exceptions,
    printer_maintenance,
    service_metadata,
    shipping_events,
    production_lot_consumptions,
    customer_traceability_profiles,
    bulk_exports,
    users,
    refresh_tokens,
    password_reset_requests,
    security_audit_log,
    units_of_measure,
    item_categories,
    items,
    item_files,
    vendors,
    customers,
    locations,
    printers,
    scrap_reasons,
    company_settings,
    idempotency_keys,
    gl_accounts,
    gl_fiscal_periods,
    gl_journal_entries,
    gl_journal_entry_lines,
    inventory_balances,
    inventory_transactions,
    boms,
    bom_lines,
    material_types,
    colors,
    material_colors,
    spools,
    spool_usage,
    purchase_orders,
    purchase_order_lines,
    purchase_order_events,
    purchase_order_documents,
    material_lots,
    vendor_items,
    work_centers,
    routings,
    routing_operations,
    operation_types,
    routing_operation_materials,
    production_orders,
    production_order_operations,
    production_order_materials,
    production_order_spools,
    serial_numbers,
    quotes,
    sales_orders,
    sales_order_lines,
    sales_order_events,
    shipments,
    payments,
    invoices,
    invoice_lines,
);
