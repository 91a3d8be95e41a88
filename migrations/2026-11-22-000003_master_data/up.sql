-- Master data: units of measure, item categories, items and their files, vendors,
-- customers, locations, printers, scrap reasons and the company settings singleton.

CREATE TABLE units_of_measure (
    id              BIGSERIAL PRIMARY KEY,
    code            TEXT NOT NULL UNIQUE CHECK (code = upper(code) AND code <> ''),
    name            TEXT NOT NULL,
    symbol          TEXT NOT NULL,
    uom_class       TEXT NOT NULL CHECK (uom_class IN ('quantity', 'weight', 'length', 'time', 'volume')),
    -- The base unit of the class (KG, M, HR, EA, L); NULL for a base unit itself.
    base_unit_code  TEXT REFERENCES units_of_measure (code),
    to_base_factor  NUMERIC(20, 10) NOT NULL DEFAULT 1 CHECK (to_base_factor > 0),
    active          BOOLEAN NOT NULL DEFAULT TRUE
);
INSERT INTO units_of_measure (code, name, symbol, uom_class, base_unit_code, to_base_factor) VALUES
    ('EA', 'Each', 'ea', 'quantity', NULL, 1),
    ('KG', 'Kilogram', 'kg', 'weight', NULL, 1),
    ('M', 'Meter', 'm', 'length', NULL, 1),
    ('HR', 'Hour', 'h', 'time', NULL, 1),
    ('L', 'Liter', 'L', 'volume', NULL, 1);
INSERT INTO units_of_measure (code, name, symbol, uom_class, base_unit_code, to_base_factor) VALUES
    ('G', 'Gram', 'g', 'weight', 'KG', 0.001),
    ('LB', 'Pound', 'lb', 'weight', 'KG', 0.453592),
    ('OZ', 'Ounce', 'oz', 'weight', 'KG', 0.0283495),
    ('MM', 'Millimeter', 'mm', 'length', 'M', 0.001),
    ('CM', 'Centimeter', 'cm', 'length', 'M', 0.01),
    ('IN', 'Inch', 'in', 'length', 'M', 0.0254),
    ('FT', 'Foot', 'ft', 'length', 'M', 0.3048),
    ('ML', 'Milliliter', 'mL', 'volume', 'L', 0.001),
    ('PK', 'Pack', 'pk', 'quantity', 'EA', 1),
    ('BOX', 'Box', 'box', 'quantity', 'EA', 1),
    ('ROLL', 'Roll', 'roll', 'quantity', 'EA', 1);

-- A tree; cycles are refused by the application (and a row is never its own parent).
CREATE TABLE item_categories (
    id          BIGSERIAL PRIMARY KEY,
    code        TEXT NOT NULL,
    name        TEXT NOT NULL CHECK (name <> ''),
    parent_id   BIGINT REFERENCES item_categories (id) ON DELETE RESTRICT CHECK (parent_id <> id),
    description TEXT,
    sort_order  INTEGER NOT NULL DEFAULT 0,
    active      BOOLEAN NOT NULL DEFAULT TRUE,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX item_categories_code_unique ON item_categories (upper(code));
CREATE INDEX item_categories_parent ON item_categories (parent_id);
SELECT diesel_manage_updated_at('item_categories');

-- Generated SKUs: PREFIX-NNN from one sequence per prefix would need dynamic DDL; one
-- sequence shared by every prefix keeps numbers unique and gap-tolerant.
CREATE SEQUENCE item_sku_seq;

CREATE TABLE items (
    id                BIGSERIAL PRIMARY KEY,
    sku               TEXT NOT NULL CHECK (sku = upper(sku) AND sku <> '' AND char_length(sku) <= 50),
    name              TEXT NOT NULL CHECK (name <> '' AND char_length(name) <= 255),
    description       TEXT,
    category_id       BIGINT REFERENCES item_categories (id) ON DELETE SET NULL,
    item_type         TEXT NOT NULL DEFAULT 'finished_good'
                      CHECK (item_type IN ('finished_good', 'component', 'material', 'consumable', 'supply', 'service', 'packaging')),
    procurement_type  TEXT NOT NULL DEFAULT 'buy' CHECK (procurement_type IN ('make', 'buy', 'make_or_buy')),
    unit              TEXT NOT NULL DEFAULT 'EA' REFERENCES units_of_measure (code),
    purchase_uom      TEXT NOT NULL DEFAULT 'EA' REFERENCES units_of_measure (code),
    purchase_factor   NUMERIC(14, 4) NOT NULL DEFAULT 1 CHECK (purchase_factor > 0),
    cost_method       TEXT NOT NULL DEFAULT 'average' CHECK (cost_method IN ('fifo', 'average', 'standard')),
    standard_cost     NUMERIC(14, 4) CHECK (standard_cost >= 0),
    average_cost      NUMERIC(14, 4) CHECK (average_cost >= 0),
    last_cost         NUMERIC(14, 4) CHECK (last_cost >= 0),
    selling_price     NUMERIC(14, 2) CHECK (selling_price >= 0),
    weight_oz         NUMERIC(12, 4) CHECK (weight_oz >= 0),
    length_in         NUMERIC(12, 4) CHECK (length_in >= 0),
    width_in          NUMERIC(12, 4) CHECK (width_in >= 0),
    height_in         NUMERIC(12, 4) CHECK (height_in >= 0),
    lead_time_days    INTEGER CHECK (lead_time_days >= 0),
    min_order_qty     NUMERIC(14, 4) CHECK (min_order_qty >= 0),
    reorder_point     NUMERIC(14, 4) CHECK (reorder_point >= 0),
    reorder_qty       NUMERIC(14, 4) CHECK (reorder_qty >= 0),
    stocking_policy   TEXT NOT NULL DEFAULT 'on_demand' CHECK (stocking_policy IN ('stocked', 'on_demand')),
    upc               TEXT,
    legacy_sku        TEXT,
    image_url         TEXT,
    is_raw_material   BOOLEAN NOT NULL DEFAULT FALSE,
    track_lots        BOOLEAN NOT NULL DEFAULT FALSE,
    track_serials     BOOLEAN NOT NULL DEFAULT FALSE,
    active            BOOLEAN NOT NULL DEFAULT TRUE,
    created_at        TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at        TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX items_sku_unique ON items (upper(sku));
CREATE INDEX items_category ON items (category_id);
CREATE INDEX items_type_active ON items (item_type, active);
CREATE INDEX items_upc ON items (upc) WHERE upc IS NOT NULL;
SELECT diesel_manage_updated_at('items');

-- Files attached to items (3MF, STL, ...), stored under UPLOADS_DIR with generated names.
CREATE TABLE item_files (
    id              BIGSERIAL PRIMARY KEY,
    item_id         BIGINT NOT NULL REFERENCES items (id) ON DELETE CASCADE,
    original_name   TEXT NOT NULL,
    stored_name     TEXT NOT NULL UNIQUE,
    content_type    TEXT NOT NULL,
    size_bytes      BIGINT NOT NULL CHECK (size_bytes >= 0),
    sha256          TEXT NOT NULL,
    uploaded_by     BIGINT REFERENCES users (id) ON DELETE SET NULL,
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX item_files_item ON item_files (item_id);

CREATE SEQUENCE vendor_code_seq;
CREATE TABLE vendors (
    id              BIGSERIAL PRIMARY KEY,
    code            TEXT NOT NULL,
    name            TEXT NOT NULL CHECK (name <> ''),
    contact_name    TEXT,
    email           TEXT,
    phone           TEXT,
    website         TEXT,
    address_line1   TEXT,
    address_line2   TEXT,
    city            TEXT,
    state           TEXT,
    postal_code     TEXT,
    country         TEXT,
    payment_terms   TEXT,
    account_number  TEXT,
    tax_id          TEXT,
    lead_time_days  INTEGER CHECK (lead_time_days >= 0),
    rating          INTEGER CHECK (rating BETWEEN 1 AND 5),
    notes           TEXT,
    is_active       BOOLEAN NOT NULL DEFAULT TRUE,
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at      TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX vendors_code_unique ON vendors (upper(code));
SELECT diesel_manage_updated_at('vendors');

-- Customers are their own table (not users): they never sign in to the back office.
CREATE SEQUENCE customer_number_seq;
CREATE TABLE customers (
    id                      BIGSERIAL PRIMARY KEY,
    customer_number         TEXT NOT NULL UNIQUE,
    email                   TEXT NOT NULL CHECK (email = lower(email) AND email <> ''),
    first_name              TEXT NOT NULL CHECK (first_name <> ''),
    last_name               TEXT NOT NULL CHECK (last_name <> ''),
    company_name            TEXT,
    phone                   TEXT,
    status                  TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive', 'suspended')),
    billing_address_line1   TEXT,
    billing_address_line2   TEXT,
    billing_city            TEXT,
    billing_state           TEXT,
    billing_zip             TEXT,
    billing_country         TEXT DEFAULT 'USA',
    shipping_address_line1  TEXT,
    shipping_address_line2  TEXT,
    shipping_city           TEXT,
    shipping_state          TEXT,
    shipping_zip            TEXT,
    shipping_country        TEXT DEFAULT 'USA',
    notes                   TEXT,
    created_at              TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at              TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX customers_email_unique ON customers (lower(email));
SELECT diesel_manage_updated_at('customers');

CREATE TABLE locations (
    id          BIGSERIAL PRIMARY KEY,
    code        TEXT NOT NULL CHECK (code <> ''),
    name        TEXT NOT NULL CHECK (name <> ''),
    type        TEXT NOT NULL DEFAULT 'warehouse',
    parent_id   BIGINT REFERENCES locations (id) ON DELETE RESTRICT CHECK (parent_id <> id),
    active      BOOLEAN NOT NULL DEFAULT TRUE,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX locations_code_unique ON locations (upper(code));
SELECT diesel_manage_updated_at('locations');
INSERT INTO locations (code, name, type) VALUES ('MAIN', 'Main Warehouse', 'warehouse');

CREATE TABLE printers (
    id                 BIGSERIAL PRIMARY KEY,
    code               TEXT NOT NULL CHECK (code <> ''),
    name               TEXT NOT NULL CHECK (name <> ''),
    model              TEXT NOT NULL CHECK (model <> ''),
    brand              TEXT NOT NULL DEFAULT 'generic'
                       CHECK (brand IN ('bambulab', 'klipper', 'octoprint', 'prusa', 'creality', 'generic')),
    serial_number      TEXT,
    ip_address         TEXT,
    mqtt_topic         TEXT,
    location           TEXT,
    notes              TEXT,
    status             TEXT NOT NULL DEFAULT 'offline'
                       CHECK (status IN ('offline', 'idle', 'printing', 'paused', 'error', 'maintenance')),
    connection_config  JSONB NOT NULL DEFAULT '{}'::jsonb,
    capabilities       JSONB NOT NULL DEFAULT '{}'::jsonb,
    last_seen          TIMESTAMPTZ,
    active             BOOLEAN NOT NULL DEFAULT TRUE,
    created_at         TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at         TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX printers_code_unique ON printers (upper(code));
SELECT diesel_manage_updated_at('printers');

CREATE TABLE scrap_reasons (
    id           BIGSERIAL PRIMARY KEY,
    code         TEXT NOT NULL CHECK (code <> '' AND char_length(code) <= 50),
    name         TEXT NOT NULL CHECK (name <> '' AND char_length(name) <= 100),
    description  TEXT,
    sequence     INTEGER NOT NULL DEFAULT 0,
    active       BOOLEAN NOT NULL DEFAULT TRUE,
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at   TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX scrap_reasons_code_unique ON scrap_reasons (lower(code));
SELECT diesel_manage_updated_at('scrap_reasons');
INSERT INTO scrap_reasons (code, name, description, sequence) VALUES
    ('adhesion', 'Bed adhesion failure', 'The print came loose from the build plate', 10),
    ('layer_shift', 'Layer shift', 'Layers are offset from each other', 20),
    ('stringing', 'Stringing', 'Thin strands of plastic between parts', 30),
    ('warping', 'Warping', 'Corners lifted or the part bent while cooling', 40),
    ('nozzle_clog', 'Nozzle clog', 'Under-extrusion or a stopped print from a clogged nozzle', 50),
    ('damage', 'Damage', 'Damaged in handling after printing', 60),
    ('quality_fail', 'Quality failure', 'Failed the quality check', 70),
    ('dimensional', 'Dimensional error', 'Out of tolerance', 80),
    ('surface_defect', 'Surface defect', 'Blobs, zits, scars or gaps on the surface', 90),
    ('material_defect', 'Material defect', 'Wet, brittle or contaminated material', 100),
    ('wrong_material', 'Wrong material', 'Printed with the wrong material or color', 110),
    ('operator_error', 'Operator error', 'A mistake in setup or handling', 120),
    ('machine_failure', 'Machine failure', 'The printer failed mid-print', 130),
    ('other', 'Other', 'Anything else (say what in the notes)', 999);

-- The company settings: exactly one row, id 1.
CREATE TABLE company_settings (
    id                           INTEGER PRIMARY KEY DEFAULT 1 CHECK (id = 1),
    company_name                 TEXT,
    company_address_line1        TEXT,
    company_address_line2        TEXT,
    company_city                 TEXT,
    company_state                TEXT,
    company_zip                  TEXT,
    company_country              TEXT,
    company_phone                TEXT,
    company_email                TEXT,
    company_website              TEXT,
    logo_filename                TEXT,
    tax_enabled                  BOOLEAN NOT NULL DEFAULT FALSE,
    tax_rate                     NUMERIC(7, 6) NOT NULL DEFAULT 0 CHECK (tax_rate >= 0 AND tax_rate <= 1),
    tax_name                     TEXT,
    tax_registration_number      TEXT,
    default_quote_validity_days  INTEGER NOT NULL DEFAULT 30 CHECK (default_quote_validity_days BETWEEN 1 AND 365),
    quote_terms                  TEXT,
    quote_footer                 TEXT,
    timezone                     TEXT NOT NULL DEFAULT 'UTC',
    business_hours_start         INTEGER NOT NULL DEFAULT 8 CHECK (business_hours_start BETWEEN 0 AND 23),
    business_hours_end           INTEGER NOT NULL DEFAULT 17 CHECK (business_hours_end BETWEEN 0 AND 23),
    business_days_per_week       INTEGER NOT NULL DEFAULT 5 CHECK (business_days_per_week BETWEEN 1 AND 7),
    business_work_days           TEXT NOT NULL DEFAULT '0,1,2,3,4',
    allow_negative_inventory     BOOLEAN NOT NULL DEFAULT FALSE,
    updated_at                   TIMESTAMPTZ NOT NULL DEFAULT now()
);
SELECT diesel_manage_updated_at('company_settings');
INSERT INTO company_settings (id) VALUES (1);
