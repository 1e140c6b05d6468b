//! The crate's modules form layers: every module imports only from modules of its own
//! layer or below, and no modules import each other in a cycle, neither between the
//! top-level modules nor between the files of one folder.
//!
//! The check reads the sources: it takes every path a file names (`use` trees and
//! inline paths through `crate::`, `super::`, `self::` or a child module), leaving out
//! comments, string literals and `#[cfg(test)]` modules, and maps it to the module it
//! leads into. Method calls do not name modules, so the files that share one type's
//! `impl` (the df-pn engine's) are not compared with each other by their calls; their
//! `use` lines still are.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The layers from the bottom: a module may import from its own layer and those below.
/// A module missing here fails the test (place a new module in its layer).
const LAYERS: &[&[&str]] = &[
    &["types", "mem", "time", "tunable"],
    &["pattern"],
    &["board"],
    &["eval", "order", "movegen", "fallback"],
    &["tt"],
    &["threat"],
    &["search"],
    &["engine"],
    &["protocol"],
    // The tools: benches, self-play, the arbiter, the opening book, the training data
    // generator and trainer.
    &["bench", "selfplay", "arbiter", "firstmove", "learn"],
];

/// Imports that break the layers and are to go (none today).
const KNOWN_UPWARD: &[(&str, &str)] = &[];

/// Every module of `src/` (one per file, `main.rs`, `lib.rs` and `bin/` left out) and
/// its source.
fn modules() -> BTreeMap<String, String> {
    fn walk(dir: &Path, root: &Path, out: &mut BTreeMap<String, String>) {
        for entry in std::fs::read_dir(dir).expect("read src") {
            let path = entry.expect("dir entry").path();
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n != "bin") {
                    walk(&path, root, out);
                }
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let rel = path.strip_prefix(root).expect("under src");
            let mut parts: Vec<String> = rel
                .with_extension("")
                .iter()
                .map(|p| p.to_string_lossy().into_owned())
                .collect();
            if parts == ["main"] || parts == ["lib"] {
                continue;
            }
            if parts.last().is_some_and(|p| p == "mod") {
                parts.pop();
            }
            let src = std::fs::read_to_string(&path).expect("read source");
            out.insert(parts.join("::"), src);
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = BTreeMap::new();
    walk(&root, &root, &mut out);
    out
}

/// The source without comments, string and character literals (each left as an empty
/// literal) and `#[cfg(test)]` modules.
fn code_only(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < b.len() {
        let rest = &src[i..];
        if rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
        } else if rest.starts_with("/*") {
            i += rest.find("*/").map_or(rest.len(), |k| k + 2);
        } else if b[i] == b'r'
            && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'))
            && rest[1..].trim_start_matches('#').starts_with('"')
        {
            // A raw string: r"…", r#"…"#, …
            let hashes = rest[1..].len() - rest[1..].trim_start_matches('#').len();
            let close = format!("\"{}", "#".repeat(hashes));
            let body = 2 + hashes;
            i += body + rest[body..].find(&close).expect("raw string ends") + close.len();
            out.push_str("\"\"");
        } else if b[i] == b'"' {
            let mut j = i + 1;
            while b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            i = j + 1;
            out.push_str("\"\"");
        } else if b[i] == b'\'' && (b.get(i + 1) == Some(&b'\\') || b.get(i + 2) == Some(&b'\'')) {
            // A character literal (a lifetime has no closing quote).
            let from = if b[i + 1] == b'\\' { i + 3 } else { i + 2 };
            i = from + src[from..].find('\'').expect("char literal ends") + 1;
            out.push_str("' '");
        } else {
            let c = rest.chars().next().expect("not at the end");
            out.push(c);
            i += c.len_utf8();
        }
    }
    // Drop `#[cfg(test)] mod name { … }` (the braces balance once literals are gone).
    while let Some(at) = out.find("#[cfg(test)]") {
        let mut after = out[at + "#[cfg(test)]".len()..].trim_start();
        // Other attributes of the item (`#[allow(…)]`).
        while after.starts_with("#[") {
            after = after[after.find(']').expect("attribute ends") + 1..].trim_start();
        }
        let Some(item) = after
            .strip_prefix("mod ")
            .or(after.strip_prefix("pub mod "))
        else {
            // A test-only item other than a module: drop just the attribute line.
            out.replace_range(at..at + "#[cfg(test)]".len(), "");
            continue;
        };
        let start = out.len() - after.len();
        let open = start + after.len() - item.len() + item.find(['{', ';']).expect("mod body");
        let end = if out.as_bytes()[open] == b';' {
            open + 1
        } else {
            let mut depth = 0;
            let mut k = open;
            loop {
                match out.as_bytes()[k] {
                    b'{' => depth += 1,
                    b'}' => {
                        depth -= 1;
                        if depth == 0 {
                            break k + 1;
                        }
                    }
                    _ => {}
                }
                k += 1;
            }
        };
        out.replace_range(at..end, "");
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Every path that `code` names through `::`, as its segments, with `use` trees
/// (`a::{b, c::d}`) expanded.
fn paths(code: &str) -> Vec<Vec<String>> {
    /// Read a path from `s` after the segments `prefix`, pushing the complete paths;
    /// how many bytes of `s` it took.
    fn read(s: &str, prefix: Vec<String>, out: &mut Vec<Vec<String>>) -> usize {
        let lead = s.len() - s.trim_start().len();
        let t = &s[lead..];
        if let Some(group) = t.strip_prefix('{') {
            // Split the group at its top-level commas.
            let mut depth = 0;
            let mut start = 0;
            for (k, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' | ',' if depth == 0 => {
                        if !group[start..k].trim().is_empty() {
                            read(&group[start..k], prefix.clone(), out);
                        }
                        if c == '}' {
                            return lead + 1 + k + 1;
                        }
                        start = k + 1;
                    }
                    '}' => depth -= 1,
                    _ => {}
                }
            }
            return s.len();
        }
        let len = t.find(|c: char| !is_ident(c)).unwrap_or(t.len());
        if len == 0 {
            out.push(prefix);
            return lead;
        }
        let mut segs = prefix;
        segs.push(t[..len].to_string());
        let after = &t[len..];
        match after.trim_start().strip_prefix("::") {
            Some(rest) => {
                let used = after.len() - rest.len();
                lead + len + used + read(rest, segs, out)
            }
            None => {
                out.push(segs);
                lead + len
            }
        }
    }
    let mut out = Vec::new();
    let mut done = 0;
    for (at, _) in code.match_indices("::") {
        if at < done {
            continue;
        }
        // The segment before `::` starts a path (it does not follow another `::`).
        let head_start = code[..at]
            .rfind(|c: char| !is_ident(c))
            .map_or(0, |k| k + 1);
        if head_start == at || code[..head_start].ends_with("::") {
            continue;
        }
        let head = code[head_start..at].to_string();
        done = at + 2 + read(&code[at + 2..], vec![head], &mut out);
    }
    out
}

/// The modules each module imports from (by the paths it names; its own module and
/// `mod` declarations are no import).
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let mods = modules();
    let mut graph = BTreeMap::new();
    for (name, src) in &mods {
        let code = code_only(src);
        let here: Vec<String> = name.split("::").map(String::from).collect();
        let children: BTreeSet<String> = mods
            .keys()
            .filter_map(|m| m.strip_prefix(&format!("{name}::")))
            .filter(|m| !m.contains("::"))
            .map(String::from)
            .collect();
        let mut to = BTreeSet::new();
        for p in paths(&code) {
            let full: Vec<String> = match p[0].as_str() {
                "crate" => p[1..].to_vec(),
                "self" => here.iter().chain(&p[1..]).cloned().collect(),
                "super" => {
                    let ups = p.iter().take_while(|s| *s == "super").count();
                    let base = &here[..here.len().saturating_sub(ups)];
                    base.iter().chain(&p[ups..]).cloned().collect()
                }
                c if children.contains(c) => here.iter().chain(&p).cloned().collect(),
                _ => continue,
            };
            // The longest prefix of the path that is a module.
            if let Some(m) = (1..=full.len())
                .rev()
                .map(|k| full[..k].join("::"))
                .find(|m| mods.contains_key(m))
            {
                if m != *name {
                    to.insert(m);
                }
            }
        }
        graph.insert(name.clone(), to);
    }
    graph
}

/// The unit a module counts as at the top level: its first segment, or itself if
/// [`LAYERS`] names it (a tool that lives in another module's folder).
fn unit(module: &str) -> String {
    if LAYERS.iter().any(|l| l.contains(&module)) {
        return module.to_string();
    }
    let mut best = module.split("::").next().unwrap_or(module).to_string();
    for l in LAYERS.iter().flat_map(|l| l.iter()) {
        if module.starts_with(&format!("{l}::")) && l.len() > best.len() {
            best = l.to_string();
        }
    }
    best
}

/// A cycle of `graph`, if it has one (as the nodes along it, first one repeated).
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        v: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(v.to_string(), 1);
        stack.push(v.to_string());
        for w in graph.get(v).into_iter().flatten() {
            match state.get(w.as_str()).copied().unwrap_or(0) {
                0 => {
                    if let Some(c) = visit(w, graph, state, stack) {
                        return Some(c);
                    }
                }
                1 => {
                    let from = stack.iter().position(|s| s == w).expect("on the stack");
                    let mut c = stack[from..].to_vec();
                    c.push(w.clone());
                    return Some(c);
                }
                _ => {}
            }
        }
        stack.pop();
        state.insert(v.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for v in graph.keys() {
        if state.get(v.as_str()).copied().unwrap_or(0) == 0 {
            if let Some(c) = visit(v, graph, &mut state, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

#[test]
fn the_reader_finds_paths_in_use_trees_and_code_but_not_in_comments_or_tests() {
    let code = code_only(
        "use crate::a::{b::C, d::{self, E}};\n// crate::comment::X\n\
         fn f() { let s = \"crate::string::X\"; let c = ':'; super::g::h(); }\n\
         #[cfg(test)]\nmod tests { use crate::test_only::X; fn f() { if true {} } }\n\
         fn g() { other::path(); }",
    );
    let found: Vec<String> = paths(&code).iter().map(|p| p.join("::")).collect();
    assert_eq!(
        found,
        [
            "crate::a::b::C",
            "crate::a::d::self",
            "crate::a::d::E",
            "super::g::h",
            "other::path"
        ]
    );
}

#[test]
fn every_module_has_a_layer_and_imports_only_from_its_layer_and_below() {
    let layer_of = |u: &str| LAYERS.iter().position(|l| l.contains(&u));
    let mut problems = Vec::new();
    for (from, tos) in imports() {
        let Some(lf) = layer_of(&unit(&from)) else {
            problems.push(format!("{from}: no layer in LAYERS"));
            continue;
        };
        for to in tos {
            let (uf, ut) = (unit(&from), unit(&to));
            let Some(lt) = layer_of(&ut) else {
                continue; // reported as the importing module
            };
            if lt > lf && !KNOWN_UPWARD.contains(&(uf.as_str(), ut.as_str())) {
                problems.push(format!("{from} imports from {to}, a later layer"));
            }
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
}

#[test]
fn the_top_level_modules_import_each_other_in_no_cycle() {
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, tos) in imports() {
        let uf = unit(&from);
        let entry = graph.entry(uf.clone()).or_default();
        for to in tos {
            let ut = unit(&to);
            if ut != uf && !KNOWN_UPWARD.contains(&(uf.as_str(), ut.as_str())) {
                entry.insert(ut);
            }
        }
    }
    assert_eq!(find_cycle(&graph), None);
}

#[test]
fn the_files_of_each_folder_import_each_other_in_no_cycle() {
    // Among the children of one module (its files and subfolders, a subfolder counting
    // as one); the parent's own file may use its children and they it.
    let graph = imports();
    let parents: BTreeSet<String> = graph
        .keys()
        .filter_map(|m| m.rsplit_once("::").map(|(p, _)| p.to_string()))
        .collect();
    for parent in parents {
        let child_of = |m: &str| {
            m.strip_prefix(&format!("{parent}::"))
                .map(|rest| format!("{parent}::{}", rest.split("::").next().unwrap_or(rest)))
        };
        let mut sub: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (from, tos) in &graph {
            let Some(cf) = child_of(from) else { continue };
            let entry = sub.entry(cf.clone()).or_default();
            for to in tos {
                if let Some(ct) = child_of(to) {
                    if ct != cf {
                        entry.insert(ct);
                    }
                }
            }
        }
        assert_eq!(find_cycle(&sub), None, "in {parent}");
    }
}
