//! The documentation against the code: the parameter table in
//! `docs/search-parameters.md` is the one the key declarations generate, every `INFO` key
//! the documents name exists, and every relative link (file and `#anchor`) resolves.

use sente::protocol::parse::{parse_info, Info};
use sente::search::params::{key, keys, markdown_table, KeyRef, PREFIX};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The README, every file in `docs/` and the measurement log.
fn documents() -> Vec<PathBuf> {
    let mut docs = vec![root().join("README.md"), root().join("benches/RESULTS.md")];
    let mut dir: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("docs/")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    dir.sort();
    docs.extend(dir);
    docs
}

/// The lines of a markdown text outside code blocks (fenced or indented by 4 spaces).
fn prose(text: &str) -> Vec<&str> {
    let mut fenced = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced && !line.starts_with("    ") {
            out.push(line);
        }
    }
    out
}

#[test]
fn the_parameter_table_of_the_docs_is_the_generated_one() {
    let doc = read(&root().join("docs/search-parameters.md"));
    let begin = doc.find("<!-- keys:begin").expect("keys:begin marker");
    let body = &doc[begin..];
    let body = &body[body.find('\n').expect("marker line") + 1..];
    let table = &body[..body.find("<!-- keys:end -->").expect("keys:end marker")];
    // The keys first, for a readable message when one is missing or left over.
    let documented: BTreeSet<&str> = table
        .lines()
        .filter_map(|l| l.strip_prefix("| `")?.split('`').next())
        .collect();
    let declared: BTreeSet<&str> = keys().map(KeyRef::name).collect();
    let missing: Vec<_> = declared.difference(&documented).collect();
    let unknown: Vec<_> = documented.difference(&declared).collect();
    assert!(
        missing.is_empty() && unknown.is_empty(),
        "docs/search-parameters.md: keys not documented {missing:?}, documented keys that \
         do not exist {unknown:?}; regenerate the table with `pbrain-sente params`"
    );
    assert_eq!(
        table,
        markdown_table(),
        "docs/search-parameters.md: the table differs from `pbrain-sente params` (a default, \
         range or help text changed); paste the new output between the markers"
    );
}

#[test]
fn no_parameter_key_is_a_protocol_key() {
    for k in keys() {
        for name in [k.name().to_string(), format!("{PREFIX}{}", k.name())] {
            assert!(
                matches!(parse_info(&format!("{name} 1")), Info::Unknown(..)),
                "INFO {name} is a protocol key: the parameter would never be reached"
            );
        }
    }
}

/// Every `INFO key` the documents name in backquotes is a protocol key or a parameter key.
#[test]
fn every_info_key_in_the_documents_exists() {
    let mut bad = Vec::new();
    for doc in documents() {
        let text = read(&doc);
        for line in prose(&text) {
            for (i, _) in line.match_indices("`INFO ") {
                let rest = &line[i + "`INFO ".len()..];
                let word: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '.')
                    .collect();
                // Placeholders (`INFO key value`, `INFO K V`) and upper-case words.
                if word.is_empty() || word == "key" || word.chars().any(|c| c.is_uppercase()) {
                    continue;
                }
                let protocol = !matches!(parse_info(&format!("{word} 1")), Info::Unknown(..));
                if !protocol && key(&word).is_none() {
                    bad.push(format!("{}: INFO {word}", doc.display()));
                }
            }
        }
    }
    assert!(bad.is_empty(), "INFO keys that do not exist: {bad:#?}");
}

/// GitHub's anchor of a heading: lower case, letters, digits, `-` and `_` kept, spaces
/// to `-`, everything else dropped; a repeated anchor gets `-1`, `-2`, ….
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    for line in prose(text) {
        let Some(h) = line.strip_prefix('#') else {
            continue;
        };
        let h = h.trim_start_matches('#');
        if !h.starts_with(' ') {
            continue;
        }
        let slug: String = h
            .trim()
            .to_lowercase()
            .chars()
            .filter_map(|c| match c {
                ' ' => Some('-'),
                c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                _ => None,
            })
            .collect();
        let mut s = slug.clone();
        let mut n = 0;
        while seen.contains(&s) {
            n += 1;
            s = format!("{slug}-{n}");
        }
        seen.insert(s);
    }
    seen
}

#[test]
fn every_relative_link_of_the_documents_resolves() {
    let mut bad = Vec::new();
    for doc in documents() {
        let text = read(&doc);
        let dir = doc.parent().expect("a folder");
        for line in prose(&text) {
            for (i, _) in line.match_indices("](") {
                let rest = &line[i + 2..];
                let Some(end) = rest.find(')') else { continue };
                let target = &rest[..end];
                if target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                let (file, anchor) = target.split_once('#').unwrap_or((target, ""));
                let path = if file.is_empty() {
                    doc.clone()
                } else {
                    dir.join(file)
                };
                if !path.exists() {
                    bad.push(format!("{}: {target}: no such file", doc.display()));
                    continue;
                }
                if !anchor.is_empty() && !anchors(&read(&path)).contains(anchor) {
                    bad.push(format!("{}: {target}: no such heading", doc.display()));
                }
            }
        }
    }
    assert!(bad.is_empty(), "broken links: {bad:#?}");
}

#[test]
fn anchors_follow_github() {
    let a = anchors("# A b\n## Rules and the `INFO rule` bitmask\n### A b\n    # code\n");
    let want: BTreeSet<String> = ["a-b", "rules-and-the-info-rule-bitmask", "a-b-1"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(a, want);
}
