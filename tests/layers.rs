//! The crate's layers, kept: `src/lib.rs` lists the top-level modules in order, and a
//! module may use only the modules listed before it. This test reads every file of
//! `src/` (comments, strings and `#[cfg(test)]` items left out, by the same lexer as
//! the report's test), finds each `crate::NAME` a file names, and fails when a module
//! uses one listed after it, or when two top-level modules use each other, unless
//! lib.rs names the pair as an exception still left (and then fails when that
//! exception is gone, so that the list only shrinks).
//! `cargo test --release --test all layers` runs it.

use crate::report::{blank_literals, rust_files, without_test_items};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The layers in the order of lib.rs's map: the first backquoted name of each table
/// row of its doc comment.
fn layer_order(lib: &str) -> Vec<String> {
    lib.lines()
        .filter_map(|l| l.strip_prefix("//! | "))
        .filter_map(|row| {
            let cell = row.split('|').next()?;
            let start = cell.find('`')? + 1;
            let len = cell[start..].find('`')?;
            Some(cell[start..start + len].to_string())
        })
        .filter(|name| name.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
        .collect()
}

/// The exceptions lib.rs names: lines of its doc comment `//! - exception: A uses B`.
fn exceptions(lib: &str) -> BTreeSet<(String, String)> {
    lib.lines()
        .filter_map(|l| l.strip_prefix("//! - exception: "))
        .filter_map(|l| {
            let mut words = l.split_whitespace();
            let from = words.next()?.trim_matches('`').to_string();
            let _uses = words.next()?;
            let to = words.next()?.trim_end_matches([',', '.', ':']).trim_matches('`').to_string();
            Some((from, to))
        })
        .collect()
}

/// The top-level module a file of `src/` belongs to (`src/game/board.rs` -> `game`).
fn module_of(src: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src).ok()?;
    let first = rel.components().next()?.as_os_str().to_string_lossy().into_owned();
    Some(first.trim_end_matches(".rs").to_string())
}

/// The top-level modules `code` names as `crate::NAME`.
fn used_modules(code: &str) -> BTreeSet<String> {
    let mut used = BTreeSet::new();
    for (k, _) in code.match_indices("crate::") {
        let before = code[..k].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue; // `spot_the_ships_crate::`, not ours
        }
        let name: String = code[k + 7..].chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        if !name.is_empty() {
            used.insert(name);
        }
    }
    used
}

/// Every use of one top-level module by another: (user, used) -> the files.
fn uses() -> BTreeMap<(String, String), Vec<String>> {
    let src = root().join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut out: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    for file in files {
        let Some(module) = module_of(&src, &file) else { continue };
        if module == "lib" || module == "main" {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let code = without_test_items(&blank_literals(&text));
        for used in used_modules(&code) {
            if used != module {
                let name = file.strip_prefix(root()).unwrap_or(&file).display().to_string();
                out.entry((module.clone(), used)).or_default().push(name);
            }
        }
    }
    out
}

#[test]
fn layers() {
    let lib = std::fs::read_to_string(root().join("src/lib.rs")).unwrap();
    let order = layer_order(&lib);
    assert!(order.len() >= 8 && order.iter().any(|m| m == "limits"), "lib.rs's map: {order:?}");
    let rank = |m: &str| order.iter().position(|o| o == m);
    let allowed = exceptions(&lib);
    let mut wrong = Vec::new();
    let mut seen_exceptions = BTreeSet::new();
    let all = uses();
    for ((from, to), files) in &all {
        let (Some(a), Some(b)) = (rank(from), rank(to)) else {
            wrong.push(format!("{from} or {to} is not in lib.rs's map ({})", files.join(", ")));
            continue;
        };
        let upward = b > a;
        // A use back from the other side that lib.rs allows makes no cycle of this one.
        let back = (to.clone(), from.clone());
        let cycle = all.contains_key(&back) && !allowed.contains(&back);
        if upward || cycle {
            if allowed.contains(&(from.clone(), to.clone())) {
                seen_exceptions.insert((from.clone(), to.clone()));
            } else {
                let why = if upward { "a layer listed after it" } else { "a module that uses it back" };
                wrong.push(format!("{from} uses {to}, {why}: {}", files.join(", ")));
            }
        }
    }
    assert!(wrong.is_empty(), "the layers of lib.rs's map are broken:\n  {}", wrong.join("\n  "));
    let gone: Vec<_> = allowed.difference(&seen_exceptions).collect();
    assert!(gone.is_empty(), "lib.rs names exceptions that are gone (remove them): {gone:?}");
}

#[test]
fn the_scanner_reads_layers_exceptions_and_uses() {
    let lib = "//! | folder | what |\n//! |---|---|\n//! | [`limits`] | x |\n//! | `sys` | y |\n\
               //! - exception: `tools` uses `cli`, for now.\n";
    assert_eq!(layer_order(lib), ["limits", "sys"]);
    assert_eq!(exceptions(lib), BTreeSet::from([("tools".to_string(), "cli".to_string())]));
    let code = "use crate::game::board; fn f() { crate::scan::x(); other_crate::y(); }";
    assert_eq!(used_modules(code), BTreeSet::from(["game".to_string(), "scan".to_string()]));
    assert_eq!(module_of(Path::new("/s"), Path::new("/s/game/board.rs")).as_deref(), Some("game"));
}
