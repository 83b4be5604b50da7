//! The serialised shape of schema members, as serde reads them.
//!
//! These structs mirror the JSON of a Pulumi package schema one-to-one and
//! are private to the crate: [`crate::decode`] turns them into the public
//! model of [`crate::model`]. Unknown fields are ignored; `null` where a
//! collection is expected reads as empty, as the reference reader does.

use std::fmt;
use std::marker::PhantomData;

use indexmap::IndexMap;
use serde::de::{MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::Value;

/// Reads `null` as the type's default.
fn nullable<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Default,
{
    Ok(Option::<T>::deserialize(deserializer)?.unwrap_or_default())
}

/// A JSON object's members in document order, repeated keys included:
/// deserialised without hashing the keys (most of these maps are read once
/// and converted into the model's map right away, which hashes them).
/// [`RawMap::into_unique`] resolves repeats as a map does.
#[derive(Debug)]
pub(crate) struct RawMap<V>(pub Vec<(String, V)>);

impl<V> Default for RawMap<V> {
    fn default() -> Self {
        RawMap(Vec::new())
    }
}

impl<V> RawMap<V> {
    /// The members as a map holds them: each key once, at the place of its
    /// first occurrence, with the value of its last (what `IndexMap`
    /// insertion does).
    pub fn into_unique(self) -> Vec<(String, V)> {
        let entries = self.0;
        let key = |i: &usize| entries.get(*i).map(|(k, _)| k.as_str());
        let mut order: Vec<usize> = (0..entries.len()).collect();
        order.sort_unstable_by(|a, b| key(a).cmp(&key(b)));
        let repeated = order.windows(2).any(|w| match w {
            [a, b] => key(a) == key(b),
            _ => false,
        });
        if !repeated {
            return entries;
        }
        let mut map: IndexMap<String, V> = IndexMap::with_capacity(entries.len());
        for (k, v) in entries {
            map.insert(k, v);
        }
        map.into_iter().collect()
    }
}

impl<'de, V: Deserialize<'de>> Deserialize<'de> for RawMap<V> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct MapVisitor<V>(PhantomData<V>);

        impl<'de, V: Deserialize<'de>> Visitor<'de> for MapVisitor<V> {
            type Value = RawMap<V>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                // What `IndexMap` says, so that errors read as before.
                f.write_str("a map")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawMap<V>, A::Error> {
                let mut entries = Vec::with_capacity(map.size_hint().unwrap_or(0).min(64));
                while let Some(entry) = map.next_entry()? {
                    entries.push(entry);
                }
                Ok(RawMap(entries))
            }
        }

        deserializer.deserialize_map(MapVisitor(PhantomData))
    }
}

#[derive(Deserialize, Default, Debug)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct RawTypeSpec {
    #[serde(rename = "type")]
    pub ty: Option<String>,
    #[serde(rename = "$ref")]
    pub reference: Option<String>,
    pub items: Option<Box<RawTypeSpec>>,
    pub additional_properties: Option<Box<RawTypeSpec>>,
    pub one_of: Option<Vec<RawTypeSpec>>,
    pub discriminator: Option<Box<RawDiscriminator>>,
    #[serde(deserialize_with = "nullable")]
    pub plain: bool,
}

#[derive(Deserialize, Default, Debug)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct RawDiscriminator {
    #[serde(deserialize_with = "nullable")]
    pub property_name: String,
    #[serde(deserialize_with = "nullable")]
    pub mapping: IndexMap<String, String>,
}

#[derive(Deserialize, Default, Debug)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct RawDefaultInfo {
    #[serde(deserialize_with = "nullable")]
    pub environment: Vec<String>,
    pub language: Option<Value>,
}

/// A property: a type spec plus its annotations (not flattened, so that the
/// decoder keeps positions and needs no buffering). The large fields that
/// few properties have are boxed: a property is moved several times on its
/// way into a map (and the map's growth moves them all again), so its size
/// is copied over and over (552 bytes unboxed, 184 boxed).
#[derive(Deserialize, Default, Debug)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct RawProperty {
    #[serde(rename = "type")]
    pub ty: Option<String>,
    #[serde(rename = "$ref")]
    pub reference: Option<String>,
    pub items: Option<Box<RawTypeSpec>>,
    pub additional_properties: Option<Box<RawTypeSpec>>,
    pub one_of: Option<Vec<RawTypeSpec>>,
    pub discriminator: Option<Box<RawDiscriminator>>,
    #[serde(deserialize_with = "nullable")]
    pub plain: bool,
    pub description: Option<String>,
    #[serde(rename = "const")]
    pub constant: Option<Box<Value>>,
    pub default: Option<Box<Value>>,
    pub default_info: Option<Box<RawDefaultInfo>>,
    pub deprecation_message: Option<String>,
    pub language: Option<Box<Value>>,
    #[serde(deserialize_with = "nullable")]
    pub secret: bool,
    #[serde(deserialize_with = "nullable")]
    pub replace_on_changes: bool,
    #[serde(deserialize_with = "nullable")]
    pub will_replace_on_changes: bool,
}

impl RawProperty {
    /// Splits off the type spec part.
    pub fn type_spec(&mut self) -> RawTypeSpec {
        RawTypeSpec {
            ty: self.ty.take(),
            reference: self.reference.take(),
            items: self.items.take(),
            additional_properties: self.additional_properties.take(),
            one_of: self.one_of.take(),
            discriminator: self.discriminator.take(),
            plain: self.plain,
        }
    }
}

#[derive(Deserialize, Default, Debug)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct RawObject {
    pub description: Option<String>,
    #[serde(deserialize_with = "nullable")]
    pub properties: RawMap<RawProperty>,
    #[serde(rename = "type")]
    pub ty: Option<String>,
    #[serde(deserialize_with = "nullable")]
    pub required: Vec<String>,
    /// `true` on a plain function return object; a list of names in the
    /// removed legacy form.
    pub plain: Option<Value>,
    pub language: Option<Value>,
    #[serde(deserialize_with = "nullable")]
    pub is_overlay: bool,
}

#[derive(Deserialize, Default, Debug)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct RawEnumValue {
    pub name: Option<String>,
    pub description: Option<String>,
    pub value: Value,
    pub deprecation_message: Option<String>,
}

/// An entry of `types`: an object type or an enum.
#[derive(Deserialize, Default, Debug)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct RawComplexType {
    pub description: Option<String>,
    #[serde(deserialize_with = "nullable")]
    pub properties: RawMap<RawProperty>,
    #[serde(rename = "type")]
    pub ty: Option<String>,
    #[serde(deserialize_with = "nullable")]
    pub required: Vec<String>,
    pub plain: Option<Value>,
    pub language: Option<Value>,
    #[serde(deserialize_with = "nullable")]
    pub is_overlay: bool,
    #[serde(rename = "enum", deserialize_with = "nullable")]
    pub values: Vec<RawEnumValue>,
}

#[derive(Deserialize, Default, Debug)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct RawAlias {
    pub name: Option<String>,
    pub project: Option<String>,
    #[serde(rename = "type")]
    pub ty: Option<String>,
}

#[derive(Deserialize, Default, Debug)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct RawResource {
    pub description: Option<String>,
    #[serde(deserialize_with = "nullable")]
    pub properties: RawMap<RawProperty>,
    #[serde(deserialize_with = "nullable")]
    pub required: Vec<String>,
    #[serde(deserialize_with = "nullable")]
    pub input_properties: RawMap<RawProperty>,
    #[serde(deserialize_with = "nullable")]
    pub required_inputs: Vec<String>,
    pub state_inputs: Option<RawObject>,
    #[serde(deserialize_with = "nullable")]
    pub aliases: Vec<RawAlias>,
    pub deprecation_message: Option<String>,
    #[serde(deserialize_with = "nullable")]
    pub is_component: bool,
    #[serde(deserialize_with = "nullable")]
    pub methods: IndexMap<String, String>,
    #[serde(deserialize_with = "nullable")]
    pub is_overlay: bool,
    pub language: Option<Value>,
    pub plain: Option<Value>,
    pub plain_inputs: Option<Value>,
}

#[derive(Deserialize, Default, Debug)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct RawFunction {
    pub description: Option<String>,
    pub inputs: Option<RawObject>,
    /// An object spec (when it has `properties`) or any type spec.
    pub outputs: Option<Value>,
    pub multi_argument_inputs: Option<Vec<String>>,
    pub deprecation_message: Option<String>,
    #[serde(deserialize_with = "nullable")]
    pub is_overlay: bool,
    pub language: Option<Value>,
}

#[derive(Deserialize, Default, Debug)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct RawConfig {
    #[serde(deserialize_with = "nullable")]
    pub variables: RawMap<RawProperty>,
    /// The required variables (serialised under `defaults`).
    #[serde(rename = "defaults", deserialize_with = "nullable")]
    pub required: Vec<String>,
}

#[derive(Deserialize, Default, Debug)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct RawMeta {
    pub module_format: Option<String>,
    #[serde(deserialize_with = "nullable")]
    pub support_pack: bool,
}

#[derive(Deserialize, Default, Debug)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct RawBaseProvider {
    #[serde(deserialize_with = "nullable")]
    pub name: String,
    #[serde(deserialize_with = "nullable")]
    pub version: String,
    #[serde(rename = "pluginDownloadURL")]
    pub plugin_download_url: Option<String>,
}

#[derive(Deserialize, Default, Debug)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct RawParameterization {
    pub base_provider: RawBaseProvider,
    #[serde(deserialize_with = "nullable")]
    pub parameter: String,
}

#[derive(Deserialize, Default, Debug)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct RawDependency {
    #[serde(deserialize_with = "nullable")]
    pub name: String,
    pub version: Option<String>,
    #[serde(rename = "downloadURL")]
    pub download_url: Option<String>,
    pub parameterization: Option<RawDependencyParameterization>,
}

#[derive(Deserialize, Default, Debug)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct RawDependencyParameterization {
    #[serde(deserialize_with = "nullable")]
    pub name: String,
    #[serde(deserialize_with = "nullable")]
    pub version: String,
    #[serde(deserialize_with = "nullable")]
    pub value: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Repeated keys resolve as `IndexMap` insertion does (first place,
    /// last value), and a mistyped map reads with the same error.
    #[test]
    fn raw_maps_resolve_repeats_like_a_map() {
        for text in [
            r#"{}"#,
            r#"{"a": 1}"#,
            r#"{"b": 1, "a": 2, "c": 3}"#,
            r#"{"a": 1, "b": 2, "a": 3}"#,
            r#"{"x": 1, "a": 2, "x": 3, "b": 4, "a": 5, "x": 6}"#,
        ] {
            let raw: RawMap<i64> = serde_json::from_str(text).unwrap();
            let map: IndexMap<String, i64> = serde_json::from_str(text).unwrap();
            let want: Vec<(String, i64)> = map.into_iter().collect();
            assert_eq!(raw.into_unique(), want, "{text}");
        }
        let raw = serde_json::from_str::<RawMap<i64>>("[1]").unwrap_err();
        let map = serde_json::from_str::<IndexMap<String, i64>>("[1]").unwrap_err();
        assert_eq!(raw.to_string(), map.to_string());
    }
}
