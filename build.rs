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
    let out = std::env::var("OUT_DIR").unwrap_or_else(|_| ".".into());
    let _ = fs::write(
        Path::new(&out).join("migrations.digest"),
        format!("{hash:016x}"),
    );
}
