//! Rebuild when a migration changes (they are embedded in the binary) and record a digest of
//! their contents, which the test harness uses to name its template database.

use std::fs;
use std::path::Path;

fn collect(dir: &Path, out: &mut Vec<(String, Vec<u8>)>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, out);
        } else if let Ok(bytes) = fs::read(&path) {
            out.push((path.display().to_string(), bytes));
        }
    }
}

fn main() {
    println!("cargo:rerun-if-changed=migrations");
    let mut files = Vec::new();
    collect(Path::new("migrations"), &mut files);
    files.sort();
    // FNV-1a: a stable digest without a build dependency.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for (name, bytes) in &files {
        for b in name.as_bytes().iter().chain(bytes.iter()) {
            hash ^= u64::from(*b);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    // The build date the service reports (`/system/version`); SOURCE_DATE_EPOCH keeps
    // reproducible builds reproducible.
    let now = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_secs())
                .unwrap_or(0)
        });
    println!(
        "cargo:rustc-env=STRATA_BUILD_DATE={}",
        civil_date(now / 86_400)
    );
    let out = std::env::var("OUT_DIR").unwrap_or_else(|_| ".".into());
    let _ = fs::write(
        Path::new(&out).join("migrations.digest"),
        format!("{hash:016x}"),
    );
}

/// `YYYY-MM-DD` of a day count since 1970-01-01 (Howard Hinnant's civil-from-days).
fn civil_date(days: u64) -> String {
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}
