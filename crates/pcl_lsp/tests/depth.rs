//! Hover and completion at every depth, on real schemas, through real
//! JSON-RPC messages (in memory, through the shared client of `common`):
//! kubernetes and random from the shared corpus (skipped without it,
//! required under `PCL_REQUIRE_CORPUS=1`), and the AWS slice of
//! `examples/schemas`.
//!
//! Each position kind of issue 27 §2 has a test: nested keys (through
//! lists, maps, unions and named types, in resources, invokes and
//! components), members after a `.`, enum values, `options { }` keys and
//! the resources `provider =`/`dependsOn = [ ]` name, and nothing where
//! nothing is valid; §1's hover on nested and top-level keys and on a
//! diagnostic.

mod common;

use std::path::PathBuf;

use common::{item, items, labels, program, url, Client};
use lsp_types::Url;
use serde_json::{json, Value};

/// The corpus's schemas (kubernetes, random), or `None` (skipped).
fn corpus_schemas(test: &str) -> Option<PathBuf> {
    pcl_testkit::shared("corpus/schemas/codegen", test)
}

/// A session on a program of `files` plus `main.pp` holding `marked`
/// (the cursor at `|`); returns the client and the cursor's position.
fn session(test: &str, files: &[(&str, &str)], marked: &str) -> Option<(Client, Value)> {
    let corpus = corpus_schemas(test)?;
    let offset = marked.find('|').unwrap_or_else(|| panic!("no cursor"));
    let text = marked.replacen('|', "", 1);
    let before = text.get(..offset).unwrap_or("");
    let line = before.matches('\n').count();
    let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1);
    let mut all: Vec<(&str, &str)> = files.to_vec();
    all.push(("main.pp", &text));
    let dir = program(&[]);
    for (name, body) in &all {
        let path = dir.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap_or_else(|e| panic!("mkdir: {e}"));
        }
        std::fs::write(&path, body).unwrap_or_else(|e| panic!("write: {e}"));
    }
    let mut client = Client::start();
    let root = Url::from_directory_path(&dir).unwrap_or_else(|()| panic!("not absolute"));
    client.initialize(json!({
        "capabilities": {},
        "rootUri": root,
        "initializationOptions": {
            "schema-dirs": [corpus.display().to_string(), common::schemas()],
            "schema-cache": false,
        },
    }));
    let uri = url(&dir, "main.pp");
    client.open(&uri, &text);
    let position =
        json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": column}});
    Some((client, position))
}

/// Completion at the cursor of `marked` (with `files` beside it).
fn complete_with(test: &str, files: &[(&str, &str)], marked: &str) -> Option<Vec<Value>> {
    let (mut client, position) = session(test, files, marked)?;
    let answer = client.ok("textDocument/completion", position);
    assert_eq!(client.stop(), Ok(()));
    Some(items(&answer))
}

fn complete(test: &str, marked: &str) -> Option<Vec<Value>> {
    complete_with(test, &[], marked)
}

/// The Markdown of a hover at the cursor of `marked`.
fn hover(test: &str, marked: &str) -> Option<String> {
    let (mut client, position) = session(test, &[], marked)?;
    let answer = client.ok("textDocument/hover", position);
    assert_eq!(client.stop(), Ok(()));
    Some(
        answer["contents"]["value"]
            .as_str()
            .unwrap_or_default()
            .to_string(),
    )
}

fn doc(item: &Value) -> &str {
    item["documentation"]["value"].as_str().unwrap_or_default()
}

const DEPLOYMENT: &str = "resource d \"kubernetes:apps/v1:Deployment\" {\n";

#[test]
fn nested_keys_of_kubernetes_inputs_at_every_depth() {
    let test = "nested_keys_of_kubernetes_inputs_at_every_depth";
    // Mid-typing, nothing closed: the keys of ObjectMeta matching `anno`.
    let Some(got) = complete(test, &format!("{DEPLOYMENT}  metadata = {{ anno|")) else {
        return;
    };
    assert_eq!(labels(&got), ["annotations"]);
    let annotations = item(&got, "annotations");
    assert_eq!(annotations["detail"], "map(string)");
    assert!(
        doc(annotations).starts_with("Annotations is an unstructured key value map"),
        "{annotations}"
    );
    // Keys already set (before and after the cursor) are left out.
    let got = complete(
        test,
        &format!(
            "{DEPLOYMENT}  metadata = {{\n    name = \"web\"\n    |\n    labels = {{}}\n  }}\n}}\n"
        ),
    )
    .unwrap_or_default();
    let names = labels(&got);
    assert!(
        names.contains(&"annotations") && names.contains(&"namespace"),
        "{names:?}"
    );
    assert!(
        !names.contains(&"name") && !names.contains(&"labels"),
        "{names:?}"
    );
    // Four objects and two lists down, through named types:
    // spec → template → spec → containers[] → ports[] → ContainerPort.
    let got = complete(
        test,
        &format!(
            "{DEPLOYMENT}  spec = {{\n    template = {{\n      spec = {{\n        containers = [{{\n          name = \"app\"\n          ports = [{{ protocol = \"TCP\", | }}]\n"
        ),
    )
    .unwrap_or_default();
    let names = labels(&got);
    assert_eq!(
        names.first(),
        Some(&"containerPort"),
        "required first: {names:?}"
    );
    for want in ["hostIP", "hostPort", "name"] {
        assert!(names.contains(&want), "{want} missing from {names:?}");
    }
    assert!(!names.contains(&"protocol"), "{names:?}");
    let port = item(&got, "containerPort");
    assert_eq!(port["detail"], "int (required)");
    assert!(doc(port).starts_with("Number of port to expose"), "{port}");
    // A map's keys are free: nothing is offered inside `labels = { }`.
    let got = complete(
        test,
        &format!("{DEPLOYMENT}  metadata = {{\n    labels = {{ |"),
    )
    .unwrap_or_default();
    assert_eq!(labels(&got), Vec::<&str>::new());
}

#[test]
fn nested_keys_of_invoke_arguments_and_component_inputs() {
    let test = "nested_keys_of_invoke_arguments_and_component_inputs";
    // An invoke's argument, through a list of a named type (AWS slice).
    let Some(got) = complete(
        test,
        "ami = invoke(\"aws:ec2/getAmi:getAmi\", {\n  filters = [{\n    name = \"n\"\n    |\n",
    ) else {
        return;
    };
    assert_eq!(labels(&got), ["values"]);
    assert_eq!(item(&got, "values")["detail"], "list(string) (required)");
    // A component's inputs (its configs) and the keys of an object-typed
    // one.
    let web = "config size int {\n  description = \"How many.\"\n}\nconfig settings \"object({replicas=int, image=string})\" {\n}\noutput url {\n  value = \"http://x\"\n}\n";
    let files = [("web/main.pp", web)];
    let got = complete_with(test, &files, "component w \"./web\" {\n  |\n}\n").unwrap_or_default();
    assert_eq!(labels(&got), ["size", "settings"]);
    assert_eq!(item(&got, "size")["detail"], "int");
    assert_eq!(doc(item(&got, "size")), "How many.");
    let got = complete_with(
        test,
        &files,
        "component w \"./web\" {\n  settings = {\n    image = \"i\"\n    |\n  }\n}\n",
    )
    .unwrap_or_default();
    assert_eq!(labels(&got), ["replicas"]);
    assert_eq!(item(&got, "replicas")["detail"], "int");
}

#[test]
fn members_after_a_dot() {
    let test = "members_after_a_dot";
    let head = "resource pw \"random:index/randomPassword:RandomPassword\" {\n  length = 16\n}\n";
    // A resource's outputs, with the schema's type and description; the
    // word typed so far filters.
    let Some(got) = complete(
        test,
        &format!("{head}output o {{\n  value = pw.resu|\n}}\n"),
    ) else {
        return;
    };
    assert_eq!(labels(&got), ["result"]);
    let result = item(&got, "result");
    // Required: the schema says every password has a result.
    assert_eq!(result["detail"], "string (required)");
    assert_eq!(doc(result), "The generated random string.\n");
    // A trailing dot with nothing after it: every output, `id` and `urn`.
    let got = complete(test, &format!("{head}x = pw.|\n")).unwrap_or_default();
    let names = labels(&got);
    for want in ["result", "length", "bcryptHash", "id", "urn"] {
        assert!(names.contains(&want), "{want} missing from {names:?}");
    }
    // Each further step: a Deployment's spec, then its template's metadata.
    let k8s = format!("{DEPLOYMENT}  metadata = {{ name = \"web\" }}\n}}\n");
    let got = complete(test, &format!("{k8s}x = d.spec.|\n")).unwrap_or_default();
    let names = labels(&got);
    for want in ["replicas", "template", "selector", "strategy"] {
        assert!(names.contains(&want), "{want} missing from {names:?}");
    }
    assert!(
        doc(item(&got, "replicas")).starts_with("Number of desired pods"),
        "{got:?}"
    );
    let got = complete(test, &format!("{k8s}x = d.spec.template.metadata.|\n")).unwrap_or_default();
    assert!(labels(&got).contains(&"annotations"), "{:?}", labels(&got));
    // An invoke's result (AWS slice).
    let got = complete(
        test,
        "ami = invoke(\"aws:ec2/getAmi:getAmi\", { owners = [\"self\"] })\nx = ami.|\n",
    )
    .unwrap_or_default();
    assert_eq!(labels(&got), ["arn", "id", "name"]);
    // An object-typed config and a local, step by step.
    let got = complete(
        test,
        "config app \"object({size=int, name=string})\" {\n}\nx = app.|\n",
    )
    .unwrap_or_default();
    assert_eq!(labels(&got), ["name", "size"]);
    assert_eq!(item(&got, "size")["detail"], "int");
    let got = complete(
        test,
        "loc = { a = 1, b = { c = \"x\", d = [{ e = 1 }] } }\nx = loc.b.d[0].|\n",
    )
    .unwrap_or_default();
    assert_eq!(labels(&got), ["e"]);
}

#[test]
fn members_of_range_and_of_components() {
    let test = "members_of_range_and_of_components";
    let ranged = |value: &str| {
        format!(
            "resource p \"random:index/randomPet:RandomPet\" {{\n  prefix = {value}\n  options {{\n    range = [{{ name = \"a\", size = 2 }}]\n  }}\n}}\n"
        )
    };
    let Some(got) = complete(test, &ranged("range.|")) else {
        return;
    };
    assert_eq!(labels(&got), ["key", "value"]);
    assert_eq!(item(&got, "key")["detail"], "int");
    let got = complete(test, &ranged("range.value.|")).unwrap_or_default();
    assert_eq!(labels(&got), ["name", "size"]);
    // A component's outputs.
    let web = "config size int {\n}\noutput url {\n  value = \"http://x\"\n}\n";
    let got = complete_with(
        test,
        &[("web/main.pp", web)],
        "component w \"./web\" {\n  size = 1\n}\nx = w.|\n",
    )
    .unwrap_or_default();
    assert_eq!(labels(&got), ["url"]);
    assert_eq!(item(&got, "url")["detail"], "string");
}

#[test]
fn enum_values_at_an_enum_typed_value() {
    let test = "enum_values_at_an_enum_typed_value";
    // A nested kubernetes property whose type is `string | ServiceSpecType`.
    let Some(got) = complete(
        test,
        "resource s \"kubernetes:core/v1:Service\" {\n  spec = {\n    type = |\n  }\n}\n",
    ) else {
        return;
    };
    let names = labels(&got);
    assert_eq!(
        names.get(..4),
        Some(
            &[
                "\"ExternalName\"",
                "\"ClusterIP\"",
                "\"NodePort\"",
                "\"LoadBalancer\""
            ][..]
        ),
        "the enum's values first: {names:?}"
    );
    assert_eq!(item(&got, "\"NodePort\"")["kind"], 20, "an enum member");
    // A top-level AWS input, with the values' names.
    let got = complete(
        test,
        "resource i \"aws:ec2/instance:Instance\" {\n  instanceType = |\n}\n",
    )
    .unwrap_or_default();
    assert_eq!(
        labels(&got).get(..3),
        Some(&["\"t3.micro\"", "\"t3.small\"", "\"t3.medium\""][..])
    );
    assert_eq!(
        item(&got, "\"t3.micro\"")["detail"],
        "InstanceType.T3_Micro"
    );
    // Inside the string already opened: the bare values, each replacing
    // what is typed in the string.
    let got = complete(
        test,
        "resource s \"kubernetes:core/v1:Service\" {\n  spec = {\n    type = \"Node|\"\n  }\n}\n",
    )
    .unwrap_or_default();
    assert_eq!(labels(&got), ["NodePort"]);
    let edit = &item(&got, "NodePort")["textEdit"];
    assert_eq!(edit["newText"], "NodePort");
    assert_eq!(edit["range"]["start"], json!({"line": 2, "character": 12}));
    assert_eq!(edit["range"]["end"], json!({"line": 2, "character": 16}));
    // Not at a property that is no enum.
    let got = complete(
        test,
        "resource i \"aws:ec2/instance:Instance\" {\n  ami = |\n}\n",
    )
    .unwrap_or_default();
    assert!(got.iter().all(|i| i["kind"] != 20), "{:?}", labels(&got));
}

#[test]
fn options_keys_and_the_resources_they_name() {
    let test = "options_keys_and_the_resources_they_name";
    let head = "size = 3\nresource a \"random:index/randomPet:RandomPet\" {\n}\nresource b \"random:index/randomId:RandomId\" {\n  byteLength = 4\n";
    let Some(got) = complete(
        test,
        &format!("{head}  options {{\n    protect = true\n    |\n  }}\n}}\n"),
    ) else {
        return;
    };
    let names = labels(&got);
    for want in ["dependsOn", "provider", "parent", "ignoreChanges"] {
        assert!(names.contains(&want), "{want} missing from {names:?}");
    }
    assert!(!names.contains(&"protect"), "{names:?}");
    for value in ["provider = |", "dependsOn = [|]", "dependsOn = [a, |]"] {
        let got = complete(
            test,
            &format!("{head}  options {{\n    {value}\n  }}\n}}\n"),
        )
        .unwrap_or_default();
        assert_eq!(labels(&got), ["a", "b"], "{value}: resources only");
        assert_eq!(item(&got, "a")["detail"], "resource");
    }
}

#[test]
fn nothing_where_nothing_is_valid() {
    let test = "nothing_where_nothing_is_valid";
    for marked in [
        // After a number's dot, after a key's name, inside a comment or a
        // plain string, in a map's free keys, after an unknown name's dot.
        "x = 1.|\n",
        "resource p \"random:index/randomPet:RandomPet\" {\n  length |\n}\n",
        "resource p \"random:index/randomPet:RandomPet\" {\n  prefix = \"a|\"\n}\n",
        "# a comment |\n",
        "resource p \"random:index/randomPet:RandomPet\" {\n  keepers = { |\n",
        "x = nowhere.|\n",
    ] {
        let Some(got) = complete(test, marked) else {
            return;
        };
        assert_eq!(labels(&got), Vec::<&str>::new(), "{marked:?}");
    }
}

#[test]
fn hover_shows_schema_types_in_pcl_words_at_every_depth() {
    let test = "hover_shows_schema_types_in_pcl_words_at_every_depth";
    // Top level: `int`, not the input's `union(int, output(int))`.
    let Some(value) = hover(
        test,
        "resource pw \"random:index/randomPassword:RandomPassword\" {\n  len|gth = 16\n}\n",
    ) else {
        return;
    };
    assert!(value.starts_with("```pcl\nlength: int\n```\n\nrequired, accepts outputs\n\nThe length of the string desired."), "{value}");
    // `port` in `ports = [{ port = 80 }]`, through a list of a named type.
    let value = hover(
        test,
        "resource s \"kubernetes:core/v1:Service\" {\n  spec = {\n    ports = [{ po|rt = 80 }]\n  }\n}\n",
    )
    .unwrap_or_default();
    assert!(
        value.starts_with("```pcl\nport: int\n```\n\nrequired"),
        "{value}"
    );
    assert!(
        value.contains("The port that will be exposed by this service."),
        "{value}"
    );
    // `name` in `metadata = { name = … }`; a map-typed one by its shape.
    let value = hover(
        test,
        &format!("{DEPLOYMENT}  metadata = {{\n    na|me = \"web\"\n  }}\n}}\n"),
    )
    .unwrap_or_default();
    assert!(
        value.starts_with("```pcl\nname: string\n```\n\noptional"),
        "{value}"
    );
    let value = hover(
        test,
        &format!("{DEPLOYMENT}  metadata = {{\n    lab|els = {{ app = \"web\" }}\n  }}\n}}\n"),
    )
    .unwrap_or_default();
    assert!(
        value.starts_with("```pcl\nlabels: map(string)\n```"),
        "{value}"
    );
    // A union of a string and an enum: both, by name.
    let value = hover(
        test,
        "resource s \"kubernetes:core/v1:Service\" {\n  spec = {\n    ty|pe = \"NodePort\"\n  }\n}\n",
    )
    .unwrap_or_default();
    assert!(
        value.starts_with("```pcl\ntype: string | ServiceSpecType\n```"),
        "{value}"
    );
    assert!(
        !value.contains("cty.") && !value.contains("output("),
        "{value}"
    );
}

#[test]
fn hover_on_a_diagnostic_offers_its_explanation() {
    let test = "hover_on_a_diagnostic_offers_its_explanation";
    let Some(value) = hover(test, "x = miss|ing\n") else {
        return;
    };
    assert!(
        value.contains("`pcl explain undefined-variable`"),
        "{value}"
    );
    let entry = pcl_diagnostics::catalogue::lookup("undefined-variable")
        .unwrap_or_else(|| panic!("an entry"));
    assert!(
        value.contains(&pcl_diagnostics::catalogue::explain(entry)),
        "{value}"
    );
    assert!(!value.contains("cty."), "{value}");
    // Away from any diagnostic: no explanation.
    let value = hover(test, "x = 1\ny = x|\n").unwrap_or_default();
    assert!(!value.contains("pcl explain"), "{value}");
}

/// Literal types print as PCL source in diagnostics too (issue 27 §1: the
/// reference's `cty.NumberIntVal(1)`), and so does hover on a literal.
#[test]
fn no_go_notation_in_diagnostics_or_literal_hovers() {
    let test = "no_go_notation_in_diagnostics_or_literal_hovers";
    let text = "o = { a = 1 }\nx = o.b\ny = [for v in { a = 1 }.a : v]\nz = \"he|llo\"\n";
    let Some((mut client, position)) = session(test, &[], text) else {
        return;
    };
    let uri: Url = serde_json::from_value(position["textDocument"]["uri"].clone())
        .unwrap_or_else(|e| panic!("{e}"));
    let diagnostics = client.diagnostics(&uri);
    let messages: Vec<&str> = diagnostics
        .iter()
        .filter_map(|d| d["message"].as_str())
        .collect();
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert!(
        messages.contains(&"cannot iterate over a value of type number 1"),
        "{messages:?}"
    );
    assert!(messages.iter().all(|m| !m.contains("cty.")), "{messages:?}");
    let hover = client.ok("textDocument/hover", position);
    assert_eq!(hover["contents"]["value"], "```pcl\n\"hello\"\n```");
    assert_eq!(client.stop(), Ok(()));
}

/// Hover on the keys of an invoke's argument object and of a component's
/// inputs, at any depth.
#[test]
fn hover_on_invoke_arguments_and_component_inputs() {
    let test = "hover_on_invoke_arguments_and_component_inputs";
    let Some(value) = hover(
        test,
        "ami = invoke(\"aws:ec2/getAmi:getAmi\", {\n  filters = [{ name = \"n\", val|ues = [\"v\"] }]\n})\n",
    ) else {
        return;
    };
    assert!(
        value.starts_with("```pcl\nvalues: list(string)\n```\n\nrequired"),
        "{value}"
    );
    let value = hover(
        test,
        "ami = invoke(\"aws:ec2/getAmi:getAmi\", {\n  most|Recent = true\n})\n",
    )
    .unwrap_or_default();
    assert!(
        value.starts_with("```pcl\nmostRecent: bool\n```\n\noptional"),
        "{value}"
    );
    let web = "config size int {\n  description = \"How many.\"\n}\nconfig settings \"object({replicas=int, image=string})\" {\n}\n";
    let (mut client, position) = session(
        test,
        &[("web/main.pp", web)],
        "component w \"./web\" {\n  si|ze = 1\n  settings = { replicas = 2, image = \"i\" }\n}\n",
    )
    .unwrap_or_else(|| panic!("the corpus was there a moment ago"));
    let answer = client.ok("textDocument/hover", position.clone());
    let value = answer["contents"]["value"].as_str().unwrap_or_default();
    assert_eq!(
        value,
        "```pcl\nsize: int\n```\n\ncomponent input\n\nHow many."
    );
    let mut nested = position;
    nested["position"] = json!({"line": 2, "character": 16});
    let answer = client.ok("textDocument/hover", nested);
    let value = answer["contents"]["value"].as_str().unwrap_or_default();
    assert_eq!(value, "```pcl\nreplicas: int\n```");
    assert_eq!(client.stop(), Ok(()));
}
