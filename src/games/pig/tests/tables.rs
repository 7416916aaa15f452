//! The default tables on disk: loaded when sound, solved again and replaced
//! when missing, corrupt or made for other rules.

use std::sync::Arc;

use kibitz::games::pig::solve::solve;
use kibitz::games::pig::tables::cache::PigTables;
use kibitz::games::pig::tables::file;
use kibitz::games::pig::{PigRules, Variant};

fn defaults() -> Vec<PigRules> {
    PigTables::default_rules()
}

#[tokio::test]
async fn missing_tables_are_solved_and_written_then_loaded_next_time() {
    let dir = tempfile::tempdir().unwrap();
    let first = Arc::new(PigTables::new(dir.path().to_path_buf(), 1 << 20));
    first.load_defaults().await.unwrap();
    assert!(first.defaults_ready());
    assert_eq!(first.solve_count(), 2);
    for rules in defaults() {
        assert!(file::load(&file::path_in(dir.path(), &rules), &rules).is_ok());
    }
    let second = Arc::new(PigTables::new(dir.path().to_path_buf(), 1 << 20));
    second.load_defaults().await.unwrap();
    assert_eq!(second.solve_count(), 0, "sound files must be loaded, not solved");
}

#[tokio::test]
async fn a_corrupt_or_mismatched_table_is_never_served_but_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let [standard, progressive] = defaults()[..] else {
        panic!("two default tables")
    };
    assert_eq!(
        (standard.variant(), progressive.variant()),
        (Variant::Standard, Variant::Progressive)
    );
    // A flipped byte in the standard table; the progressive table's file
    // holds the standard table (a mismatch).
    let good = solve(&standard);
    let mut bytes = file::encode(&good);
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0xff;
    std::fs::write(file::path_in(dir.path(), &standard), &bytes).unwrap();
    std::fs::write(file::path_in(dir.path(), &progressive), file::encode(&good)).unwrap();

    let tables = Arc::new(PigTables::new(dir.path().to_path_buf(), 1 << 20));
    tables.load_defaults().await.unwrap();
    assert_eq!(tables.solve_count(), 2);
    let served = tables.get(standard).await.unwrap();
    assert_eq!(served.values(), good.values());
    let served = tables.get(progressive).await.unwrap();
    assert_eq!(served.values(), solve(&progressive).values());
    for rules in [standard, progressive] {
        assert!(
            file::load(&file::path_in(dir.path(), &rules), &rules).is_ok(),
            "{rules:?} not replaced"
        );
    }
}
