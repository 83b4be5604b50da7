//! The [`Environment`] the program binder gives expression binding: node
//! types, schema functions for `invoke` and resource methods for `call`.

use pcl_diagnostics::Span;
use pcl_expr::{
    Environment, InvokeFunction, InvokeLookup, Method, MethodLookup, NodeId, NodeMode,
    NodeReference,
};
use pcl_schema::suggest::suggest_functions;
use std::cell::RefCell;
use std::collections::HashMap;

use pcl_types::{InputTypeMemo, Type};

use crate::schema_types::{SchemaResourceAnnotation, Schemas};

/// A read-only view of the binder's state while one expression is bound.
pub(crate) struct EnvView<'b, 's> {
    /// The program's nodes (their `ty` is what references see) and
    /// declarations (their kind decides how references traverse them).
    pub nodes: &'b [crate::model::Node],
    pub decls: &'b [crate::program::Decl],
    /// `SkipResourceTypechecking`: resource traversals are lenient.
    pub lenient_resources: bool,
    pub schemas: &'b Schemas<'s>,
    pub input_types: &'b RefCell<InputTypeMemo>,
    /// Answers of [`Environment::invoke_signature`] by token, for the whole
    /// check (the schema lookup of a function is the same every time).
    pub invokes: &'b RefCell<HashMap<String, InvokeLookup>>,
    /// The names sibling files declare and where their uses are recorded
    /// (a file checked alone, see `crate::siblings`).
    pub siblings: Option<(
        &'b crate::siblings::Siblings,
        &'b crate::siblings::SiblingUses,
    )>,
}

impl Environment for EnvView<'_, '_> {
    fn node_type(&self, id: NodeId) -> Type {
        self.nodes
            .get(id.0 as usize)
            .map_or_else(Type::dynamic, |node| node.ty.clone())
    }

    fn node_reference(&self, id: NodeId) -> NodeReference {
        use crate::program::DeclKind;
        let (Some(node), Some(decl)) =
            (self.nodes.get(id.0 as usize), self.decls.get(id.0 as usize))
        else {
            return NodeReference {
                ty: Type::dynamic(),
                mode: NodeMode::Dynamic,
            };
        };
        let mode = match decl.kind {
            DeclKind::Hook(_) => NodeMode::Dynamic,
            DeclKind::Pulumi => {
                NodeMode::NotTraversable("pulumi blocks cannot be traversed".into())
            }
            DeclKind::Resource | DeclKind::Read if self.lenient_resources => NodeMode::Lenient,
            _ => NodeMode::Typed,
        };
        NodeReference {
            ty: node.ty.clone(),
            mode,
        }
    }

    fn invoke_signature(&self, token: &str, version: Option<&str>, _range: Span) -> InvokeLookup {
        // A pin that is no semantic version pins nothing (as for resources).
        let pin = version.and_then(|v| semver::Version::parse(v).ok());
        let key = match &pin {
            Some(v) => format!("{token}@{v}"),
            None => token.to_string(),
        };
        if let Some(found) = self.invokes.borrow().get(&key) {
            return found.clone();
        }
        let found = self.lookup_invoke(token, pin.as_ref());
        self.invokes.borrow_mut().insert(key, found.clone());
        found
    }

    fn declared_elsewhere(&self, name: &str, span: Span) -> bool {
        self.siblings
            .is_some_and(|(siblings, uses)| uses.record(siblings, name, span))
    }

    fn input_type(&self, t: &Type) -> Type {
        if let Some(kept) = self.schemas.kept_input_type(t) {
            return kept;
        }
        self.input_types.borrow_mut().input_type(t)
    }

    fn method_signature(&self, receiver: &Type, method: &str) -> MethodLookup {
        self.lookup_method(receiver, method)
    }
}

impl EnvView<'_, '_> {
    fn lookup_invoke(&self, token: &str, pin: Option<&semver::Version>) -> InvokeLookup {
        let package = token.split(':').next().unwrap_or(token);
        let pkg = match self.schemas.load_pinned(package, pin) {
            Ok(pkg) => pkg,
            Err(e) => {
                // The invoke diagnostic has no help line of its own, so the
                // remedy rides in the detail.
                let detail = match e.help() {
                    Some(help) => format!("{e}; {help}"),
                    None => e.to_string(),
                };
                return InvokeLookup::UnknownPackage {
                    package: package.to_string(),
                    detail,
                };
            }
        };
        match self.schemas.lookup_function(&pkg, token) {
            Ok(Some(found)) => {
                let types = self.schemas.function_types(&pkg, &found.item);
                let pinned_version_missing = self.schemas.missing_pin(package, pin).map(|e| {
                    let used = pkg
                        .version_text()
                        .map(|v| v.to_string())
                        .unwrap_or_default();
                    let help = e.help().map(|h| format!("; {h}")).unwrap_or_default();
                    format!("{e}; the invoke is checked against version {used}{help}")
                });
                InvokeLookup::Found(InvokeFunction {
                    pinned_version_missing,
                    token: found.bound_token.clone(),
                    schema_token: found.schema_token.clone(),
                    inputs: types.inputs,
                    input_shape: types.input_shape,
                    return_type: types.return_type,
                    multi_argument_inputs: types.multi_argument_inputs,
                })
            }
            Ok(None) => InvokeLookup::NotFound {
                candidates: suggest_functions(&pkg, token),
            },
            Err(e) => InvokeLookup::LoadError {
                message: e.to_string(),
            },
        }
    }

    fn lookup_method(&self, receiver: &Type, method: &str) -> MethodLookup {
        let annotations = receiver.annotations();
        let Some(ann) = annotations.first::<SchemaResourceAnnotation>() else {
            return MethodLookup::UntypedReceiver;
        };
        // The version the resource was bound against (its pin, if any).
        let pin = ann
            .package_version
            .as_deref()
            .and_then(|v| semver::Version::parse(v).ok());
        let Ok(pkg) = self.schemas.load_pinned(&ann.package, pin.as_ref()) else {
            return MethodLookup::UntypedReceiver;
        };
        let Some(Ok(res)) = pkg.resource(&ann.token) else {
            return MethodLookup::UntypedReceiver;
        };
        match pkg.method(&res, method) {
            Some(Ok(f)) => {
                let types = self.schemas.function_types(&pkg, &f);
                MethodLookup::Found(Method {
                    token: f.token.clone(),
                    inputs: types.method_inputs,
                    return_type: types.return_type,
                    plain_return: types.plain_return,
                })
            }
            _ => {
                let names: Vec<&str> = res.methods.keys().map(String::as_str).collect();
                let candidates = pcl_expr::suggest::candidates(method, names)
                    .into_iter()
                    .map(str::to_string)
                    .collect();
                MethodLookup::NotFound {
                    resource_token: pkg.canonical_token(&res.token),
                    candidates,
                }
            }
        }
    }
}
