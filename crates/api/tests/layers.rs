//! The rooms of ARCHITECTURE.md hold: the modules of `crates/api` and `crates/search` import
//! each other without a cycle, and no route module imports another.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

type Graph = BTreeMap<String, BTreeSet<String>>;

/// Module name (`routes::market`) → the crate modules its code names through `crate::…`.
fn import_graph(src: &Path) -> Graph {
    let mut files = Vec::new();
    collect_rust_files(src, &mut files);
    let modules: Vec<(String, String)> = files
        .iter()
        .map(|file| {
            let relative = file.strip_prefix(src).expect("under src").with_extension("");
            let mut parts: Vec<String> = relative
                .iter()
                .map(|part| part.to_string_lossy().into_owned())
                .collect();
            if matches!(parts.last().map(String::as_str), Some("mod" | "lib" | "main")) {
                parts.pop();
            }
            (
                parts.join("::"),
                code_without_comments_and_tests(&fs::read_to_string(file).expect("readable")),
            )
        })
        .collect();
    let names: BTreeSet<&str> = modules.iter().map(|(name, _)| name.as_str()).collect();
    modules
        .iter()
        .map(|(name, code)| {
            let imports = code
                .split("crate::")
                .skip(1)
                .filter_map(|rest| {
                    let path: String = rest
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                        .collect();
                    let mut segments: Vec<&str> = path.split("::").filter(|segment| !segment.is_empty()).collect();
                    // The longest prefix that is a module: `routes::market::X` is `routes::market`.
                    while !segments.is_empty() && !names.contains(segments.join("::").as_str()) {
                        segments.pop();
                    }
                    Some(segments.join("::")).filter(|module| !module.is_empty() && module != name)
                })
                .collect();
            (name.clone(), imports)
        })
        .collect()
}

fn collect_rust_files(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
    for entry in fs::read_dir(dir).expect("readable folder") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            collect_rust_files(&path, files);
        } else if path.extension().is_some_and(|extension| extension == "rs") {
            files.push(path);
        }
    }
}

/// Comments name modules in links without importing them, and unit tests may reach anywhere.
fn code_without_comments_and_tests(source: &str) -> String {
    let code: String = source
        .lines()
        .map(|line| line.split("//").next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n");
    match code.find("#[cfg(test)]") {
        Some(tests) => code[..tests].to_owned(),
        None => code,
    }
}

/// A cycle of imports, as the modules along it, if there is one.
fn find_cycle(graph: &Graph) -> Option<Vec<String>> {
    fn visit(module: &str, graph: &Graph, path: &mut Vec<String>, done: &mut BTreeSet<String>) -> Option<Vec<String>> {
        if let Some(start) = path.iter().position(|seen| seen == module) {
            let mut cycle = path[start..].to_vec();
            cycle.push(module.to_owned());
            return Some(cycle);
        }
        if done.contains(module) {
            return None;
        }
        path.push(module.to_owned());
        for next in graph.get(module).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(module.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|module| visit(module, graph, &mut Vec::new(), &mut done))
}

fn crate_src(relative: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(relative)
}

#[test]
fn the_api_modules_import_each_other_without_a_cycle() {
    let graph = import_graph(&crate_src("src"));
    assert!(graph.len() > 30, "the api's modules were found: {graph:?}");
    assert_eq!(find_cycle(&graph), None);
}

#[test]
fn no_route_module_imports_another() {
    let graph = import_graph(&crate_src("src"));
    let crossings: Vec<(String, String)> = graph
        .iter()
        .filter(|(module, _)| module.starts_with("routes::"))
        .flat_map(|(module, imports)| imports.iter().map(move |import| (module.clone(), import.clone())))
        .filter(|(_, import)| import.starts_with("routes"))
        .collect();
    assert!(graph.contains_key("routes::market"), "the route modules were found");
    assert_eq!(crossings, Vec::new());
}

#[test]
fn the_search_modules_import_each_other_without_a_cycle() {
    let graph = import_graph(&crate_src("../search/src"));
    assert!(
        graph.contains_key("snapshot") && graph.contains_key("cards"),
        "the search modules were found"
    );
    assert_eq!(
        graph["cards"],
        BTreeSet::from(["answer".to_owned(), "slots".to_owned()]),
        "cards depends only on answer types and the slots it keeps cards in"
    );
    assert!(
        graph.get("slots").is_none_or(BTreeSet::is_empty),
        "slots is a leaf: {:?}",
        graph.get("slots")
    );
    assert_eq!(find_cycle(&graph), None);
}

#[test]
fn a_cycle_is_found_when_there_is_one() {
    let graph: Graph = [("a", "b"), ("b", "c"), ("c", "a"), ("d", "a")]
        .into_iter()
        .map(|(from, to)| (from.to_owned(), BTreeSet::from([to.to_owned()])))
        .collect();
    let cycle = find_cycle(&graph).expect("a → b → c → a");
    assert_eq!(cycle.first(), cycle.last());
    assert_eq!(cycle.len(), 4);
}
