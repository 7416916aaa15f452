//! The Dockerfile bakes the default tables into the image under the names the
//! server looks for; if either side changes, this fails.

use kibitz::games::pig::tables::cache::PigTables;
use kibitz::games::pig::tables::file;

#[test]
fn the_dockerfile_writes_every_default_table_under_its_served_name() {
    let dockerfile = include_str!("../../Dockerfile");
    for rules in PigTables::default_rules() {
        let name = file::file_name(&rules);
        assert!(
            dockerfile.contains(&format!("/out/data/{name}")),
            "Dockerfile does not write {name}"
        );
        assert!(dockerfile.contains(&format!("--variant {}", rules.variant())));
    }
}
