//! Unit tests of `import.rs`.

use super::*;

fn rows(csv: &str) -> ParsedFile {
    parse(csv.as_bytes()).expect("parses")
}

fn texts(row: &ImportRow) -> Vec<String> {
    row.errors.iter().map(RowProblem::text).collect()
}

#[test]
fn the_template_imports_cleanly() {
    let report = rows(&template());
    assert_eq!(report.format, ImportFormat::Generic);
    assert_eq!(report.rows.len(), 1);
    assert_eq!(report.valid_rows(), 1, "{:?}", report.rows[0].errors);
    let data = &report.rows[0].data;
    assert_eq!(data.email.as_deref(), Some("jane.doe@example.com"));
    assert_eq!(data.shipping_zip.as_deref(), Some("62701"));
    assert_eq!(data.billing_city.as_deref(), Some("Springfield"));
    assert_eq!(data.status.as_deref(), Some("active"));
    assert_eq!(report.rows[0].row_number, 2);
}

#[test]
fn a_bom_and_spreadsheet_headers_are_understood() {
    let csv = "\u{feff}First Name;Last Name;E-mail;Zip\nAda;Lovelace;ADA@example.com;W1\n";
    let report = rows(csv);
    assert_eq!(report.valid_rows(), 1, "{:?}", report.rows[0].errors);
    let d = &report.rows[0].data;
    assert_eq!(d.first_name.as_deref(), Some("Ada"));
    assert_eq!(d.email.as_deref(), Some("ada@example.com"));
    assert_eq!(d.billing_zip.as_deref(), Some("W1"));
    assert_eq!(d.shipping_zip.as_deref(), Some("W1"));
    let report = rows("Given Name,Family Name,Email Address\nGrace,Hopper,g@example.com\n");
    assert_eq!(report.valid_rows(), 1);
}

#[test]
fn windows_1252_files_are_read() {
    let bytes = b"first_name,last_name,email\nJos\xe9,M\x9arquez,jose@example.com\n";
    let report = parse(bytes).expect("parses");
    assert_eq!(report.rows[0].data.first_name.as_deref(), Some("José"));
    assert_eq!(report.rows[0].data.last_name.as_deref(), Some("Mšrquez"));
}

#[test]
fn a_shopify_export_is_recognised_and_mapped() {
    let csv = "Customer ID,First Name,Last Name,Email,Accepts Email Marketing,Default Address Company,Default Address Address1,Default Address Address2,Default Address City,Default Address Province Code,Default Address Country Code,Default Address Zip,Default Address Phone,Phone,Accepts SMS Marketing,Total Spent,Total Orders,Note,Tax Exempt,Tags\n\
               '7001,Ada,Lovelace,ada@example.com,yes,Engines Ltd,1 Analytical Row,,London,LND,GB,W1,,'+441234567,no,10.00,1,VIP,no,\n";
    let report = rows(csv);
    assert_eq!(report.format, ImportFormat::Shopify);
    assert_eq!(report.valid_rows(), 1, "{:?}", report.rows[0].errors);
    let d = &report.rows[0].data;
    assert_eq!(d.company_name.as_deref(), Some("Engines Ltd"));
    assert_eq!(d.billing_address_line1.as_deref(), Some("1 Analytical Row"));
    assert_eq!(d.shipping_state.as_deref(), Some("LND"));
    assert_eq!(d.billing_country.as_deref(), Some("GB"));
    assert_eq!(d.phone.as_deref(), Some("+441234567"));
    assert_eq!(d.notes.as_deref(), Some("VIP"));

    let classic = "First Name,Last Name,Email,Company,Address1,Address2,City,Province,Province Code,Country,Country Code,Zip,Phone,Accepts Marketing,Total Spent,Total Orders,Tags,Note,Tax Exempt\n\
                   Grace,Hopper,grace@example.com,,1 Navy Yard,,Arlington,Virginia,VA,United States,US,22202,,no,0,0,,,no\n";
    let report = rows(classic);
    assert_eq!(report.format, ImportFormat::Shopify);
    assert_eq!(
        report.rows[0].data.billing_state.as_deref(),
        Some("Virginia")
    );
}

#[test]
fn order_exports_split_names_and_keep_one_customer_per_email() {
    let csv = "Sale Date,Order ID,Buyer Name,Buyer Email,Ship Name,Ship Address1,Ship City,Ship State,Ship Zipcode,Ship Country\n\
               01/02/26,1,Ada King Lovelace,ada@example.com,Ada Lovelace,1 Row,London,,W1,UK\n\
               01/03/26,2,Ada King Lovelace,ADA@example.com,Ada Lovelace,1 Row,London,,W1,UK\n\
               01/03/26,3,Cher,cher@example.com,Cher,2 Row,LA,CA,90001,US\n";
    let report = rows(csv);
    assert_eq!(report.format, ImportFormat::Etsy);
    let d = &report.rows[0].data;
    assert_eq!(d.first_name.as_deref(), Some("Ada"));
    assert_eq!(d.last_name.as_deref(), Some("King Lovelace"));
    assert_eq!(d.shipping_city.as_deref(), Some("London"));
    assert_eq!(d.billing_city, None);
    assert!(texts(&report.rows[1])[0].contains("Duplicate of row 2"));
    assert_eq!(texts(&report.rows[2]), ["last_name: Field required"]);
    assert_eq!(report.valid_rows(), 1);
}

#[test]
fn rows_report_every_problem_with_their_line() {
    let csv = "email,first_name,last_name,status,phone\n\
               ,Ada,Lovelace,,\n\
               \n\
               bad-address,,Hopper,retired,\n\
               ok@example.com,Ok,Person,inactive,\n";
    let report = rows(csv);
    assert_eq!(report.rows.len(), 3);
    assert_eq!(report.rows[0].row_number, 2);
    assert_eq!(texts(&report.rows[0]), ["email: Field required"]);
    assert_eq!(report.rows[1].row_number, 4);
    let errors = &texts(&report.rows[1]);
    assert!(
        errors.iter().any(|e| e.starts_with("status:")),
        "{errors:?}"
    );
    assert!(errors.contains(&"first_name: Field required".to_string()));
    assert!(
        errors
            .iter()
            .any(|e| e.starts_with("email: value is not a valid email address"))
    );
    assert_eq!(report.rows[2].data.status.as_deref(), Some("inactive"));
    assert_eq!(report.valid_rows(), 1);
    let shared = report.report(false);
    assert_eq!(
        (shared.total_rows, shared.valid_rows, shared.error_rows),
        (3, 1, 2)
    );
    assert_eq!(shared.errors[0].row, 2);
    assert_eq!(shared.errors[0].field.as_deref(), Some("email"));
    assert_eq!(shared.rows[2].data.0["status"], "inactive");
    assert!(!shared.applied);
}

#[test]
fn row_numbers_are_file_lines_with_crlf_blank_lines_and_quoted_line_breaks() {
    let csv = "email,first_name,last_name,notes\r\n\r\na@example.com,A,B,\"two\r\nlines\"\r\nb@example.com,C,,\r\n";
    let report = rows(csv);
    let lines: Vec<i64> = report.rows.iter().map(|r| r.row_number).collect();
    assert_eq!(lines, [3, 5]);
    assert_eq!(report.rows[0].data.notes.as_deref(), Some("two\r\nlines"));
    assert_eq!(report.report(false).errors[0].row, 5);
}

#[test]
fn files_without_the_needed_columns_are_refused() {
    let e = parse(b"name,phone\nAda,1\n").expect_err("no email");
    assert_eq!(e.fields[0].field, "file");
    let e = parse(b"email,phone\na@example.com,1\n").expect_err("no names");
    assert!(e.fields[0].message.contains("name columns"));
    assert!(parse(b"\xEF\xBB\xBF  \n").is_err());
}

#[test]
fn woocommerce_and_amazon_are_recognised() {
    let woo = "Email,Billing First Name,Billing Last Name,Billing Company,Billing Address 1,Billing City,Billing Postcode,Billing Country,Billing Phone,Shipping Address 1,Shipping City,Shipping Postcode\n\
               w@example.com,Wo,Commerce,,1 Billing St,Bill,111,US,555,2 Ship St,Ship,222\n";
    let report = rows(woo);
    assert_eq!(report.format, ImportFormat::Woocommerce);
    let d = &report.rows[0].data;
    assert_eq!(d.billing_address_line1.as_deref(), Some("1 Billing St"));
    assert_eq!(d.shipping_address_line1.as_deref(), Some("2 Ship St"));
    assert_eq!(d.phone.as_deref(), Some("555"));
    let amazon = "Buyer Email,Buyer Name,Ship To Address,Ship To City,Ship To State,Ship To Zip,Ship To Country\n\
                  a@example.com,Ann Buyer,3 Box Rd,Seattle,WA,98101,US\n";
    let report = rows(amazon);
    assert_eq!(report.format, ImportFormat::Amazon);
    assert_eq!(report.rows[0].data.last_name.as_deref(), Some("Buyer"));
}

#[test]
fn amazon_ship_to_columns_are_recognised() {
    let amazon = "Email,Buyer Name,Ship To Address,Ship To City,Ship To State,Ship To Zip,Ship To Country\n\
                  a@example.com,Ann Buyer,3 Box Rd,Seattle,WA,98101,US\n";
    let report = rows(amazon);
    assert_eq!(report.format, ImportFormat::Amazon);
    assert_eq!(report.rows[0].data.shipping_zip.as_deref(), Some("98101"));
}
