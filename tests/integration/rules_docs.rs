//! `docs/rules/` against the registry: every registered game has its rules file, every
//! parameter `sim list` shows is documented there (its default and each of its fixed choices),
//! and every clause id cited in `src/` is defined in the file of its game.

use std::path::{Path, PathBuf};

use tabletop_sim::games;

/// The clause-id prefix of each game's rules file (`docs/rules/README.md`).
const PREFIXES: &[(&str, &str)] = &[
    ("DAXU", "daxu"),
    ("DUN", "dunhuang"),
    ("QAX", "qax"),
    ("DAI", "daimyo"),
    ("KUHN", "kuhn"),
    ("GOOF", "goofspiel"),
];

fn rules_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/rules")
}

fn rules_file(game: &str) -> Option<String> {
    std::fs::read_to_string(rules_dir().join(format!("{game}.md"))).ok()
}

/// The fixed set of values a parameter of type `kind` (as `sim list` prints it) accepts:
/// `bool`, or an enum printed `a|b|c` (words without spaces or separators). `None` for open
/// types (integers, lists, paths, "a seat 0..=3, or random", ...).
fn fixed_choices(kind: &str) -> Option<Vec<&str>> {
    if kind == "bool" {
        return Some(vec!["true", "false"]);
    }
    let words: Vec<&str> = kind.split('|').collect();
    let plain = |w: &&str| {
        !w.is_empty()
            && w.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    };
    (words.len() > 1 && words.iter().all(plain)).then_some(words)
}

/// The row of the parameter table for `name`: the line starting with ``| `name` |``.
fn param_row<'a>(doc: &'a str, name: &str) -> Option<&'a str> {
    let head = format!("| `{name}` |");
    doc.lines().find(|l| l.starts_with(&head))
}

/// What is missing from `doc` for the parameters of game `g`, one line per gap.
fn undocumented(g: &games::GameEntry, doc: &str) -> Vec<String> {
    let mut gaps = Vec::new();
    for p in &g.params {
        let Some(row) = param_row(doc, p.name) else {
            gaps.push(format!("{}: no row for parameter `{}`", g.name, p.name));
            continue;
        };
        if !row.contains(&format!("`{}`", p.default)) {
            gaps.push(format!(
                "{}: row of `{}` lacks its default `{}`",
                g.name, p.name, p.default
            ));
        }
        for choice in fixed_choices(&p.kind).unwrap_or_default() {
            if !row.contains(&format!("`{choice}`")) {
                gaps.push(format!(
                    "{}: row of `{}` lacks its choice `{choice}`",
                    g.name, p.name
                ));
            }
        }
    }
    gaps
}

#[test]
fn every_game_has_a_rules_file_documenting_its_parameters() {
    let mut gaps = Vec::new();
    let all = games::all();
    assert_eq!(all.len(), games::NAMES.len());
    for g in &all {
        match rules_file(g.name) {
            None => gaps.push(format!("{}: no docs/rules/{}.md", g.name, g.name)),
            Some(doc) => gaps.extend(undocumented(g, &doc)),
        }
    }
    assert!(
        gaps.is_empty(),
        "docs/rules is out of date:\n{}",
        gaps.join("\n")
    );
}

/// The check itself can fail: a parameter table without one row, without a default and
/// without a choice is reported for each.
#[test]
fn a_missing_parameter_row_default_or_choice_is_reported() {
    let g = games::all().into_iter().find(|g| g.name == "daxu").unwrap();
    let doc = rules_file("daxu").unwrap();
    assert!(undocumented(&g, &doc).is_empty());
    let without_row: String = doc
        .lines()
        .filter(|l| !l.starts_with("| `rep_order` |"))
        .map(|l| format!("{l}\n"))
        .collect();
    let gaps = undocumented(&g, &without_row);
    assert_eq!(gaps, ["daxu: no row for parameter `rep_order`"]);
    let without_choice = doc.replace("| `table_b` | DAXU-02 |", "| the other table | DAXU-02 |");
    assert_eq!(
        undocumented(&g, &without_choice),
        ["daxu: row of `reputation_points` lacks its choice `table_b`"]
    );
    let without_default = doc.replace("| `2/2/5` |", "| two, two, five |");
    assert_eq!(
        undocumented(&g, &without_default),
        ["daxu: row of `deck` lacks its default `2/2/5`"]
    );
}

/// Every `PREFIX-n.m` or `PREFIX-nn` token in `text` with a known prefix, as
/// `(prefix, id)`.
fn clause_ids(text: &str) -> Vec<(&'static str, String)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    for &(prefix, _) in PREFIXES {
        let pat = format!("{prefix}-");
        let mut from = 0;
        while let Some(i) = text[from..].find(&pat) {
            let start = from + i;
            from = start + pat.len();
            if start > 0 && (b[start - 1].is_ascii_alphanumeric() || b[start - 1] == b'_') {
                continue;
            }
            let mut end = from;
            while end < b.len() && b[end].is_ascii_digit() {
                end += 1;
            }
            if end == from {
                continue;
            }
            if end + 1 < b.len() && b[end] == b'.' && b[end + 1].is_ascii_digit() {
                end += 1;
                while end < b.len() && b[end].is_ascii_digit() {
                    end += 1;
                }
            }
            out.push((prefix, text[start..end].to_string()));
        }
    }
    out
}

fn source_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            source_files(&path, out);
        } else if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("rs" | "toml")
        ) {
            out.push(path);
        }
    }
}

#[test]
fn every_clause_id_cited_in_the_source_is_defined() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    source_files(&root.join("src"), &mut files);
    files.sort();
    let docs: Vec<(&str, String)> = PREFIXES
        .iter()
        .map(|&(prefix, game)| (prefix, rules_file(game).unwrap_or_default()))
        .collect();
    let mut unknown = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for (prefix, id) in clause_ids(&text) {
            let doc = &docs.iter().find(|(p, _)| *p == prefix).unwrap().1;
            if !doc.contains(&format!("**{id}**")) {
                unknown.push(format!(
                    "{}: {id}",
                    file.strip_prefix(root).unwrap().display()
                ));
            }
        }
    }
    unknown.dedup();
    assert!(
        unknown.is_empty(),
        "clause ids cited but not defined in docs/rules:\n{}",
        unknown.join("\n")
    );
}

#[test]
fn clause_ids_are_found_as_cited() {
    let ids = clause_ids("(DAXU-3.5; GAPS DUN-08.) XDAI-01 QAX-9. DAI-10.1, DAXU-x");
    let ids: Vec<&str> = ids.iter().map(|(_, id)| id.as_str()).collect();
    assert_eq!(ids, ["DAXU-3.5", "DUN-08", "QAX-9", "DAI-10.1"]);
}
