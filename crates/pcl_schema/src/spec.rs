//! The serialised shape of schema members, as serde reads them.
//!
//! These structs mirror the JSON of a Pulumi package schema one-to-one and
//! are private to the crate: [`crate::decode`] turns them into the public
//! model of [`crate::model`]. Unknown fields are ignored; `null` where a
//! collection is expected reads as empty, as the reference reader does.

use indexmap::IndexMap;
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
    pub discriminator: Option<RawDiscriminator>,
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
/// decoder keeps positions and needs no buffering).
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
    pub discriminator: Option<RawDiscriminator>,
    #[serde(deserialize_with = "nullable")]
    pub plain: bool,
    pub description: Option<String>,
    #[serde(rename = "const")]
    pub constant: Option<Value>,
    pub default: Option<Value>,
    pub default_info: Option<RawDefaultInfo>,
    pub deprecation_message: Option<String>,
    pub language: Option<Value>,
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
    pub properties: IndexMap<String, RawProperty>,
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
    pub properties: IndexMap<String, RawProperty>,
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
    pub properties: IndexMap<String, RawProperty>,
    #[serde(deserialize_with = "nullable")]
    pub required: Vec<String>,
    #[serde(deserialize_with = "nullable")]
    pub input_properties: IndexMap<String, RawProperty>,
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
    pub variables: IndexMap<String, RawProperty>,
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

// ----- checking a type without building it ---------------------------------
//
// `RawComplexType` and what it holds, mirrored field for field (same
// names, renames, order, defaults and `Option`s, so serde accepts and
// rejects exactly the same documents), but with sinks that build nothing:
// a string is only checked to be a string, a JSON value only parsed, a map
// or list only walked. [`crate::Package::is_object_type`] decodes a type
// into this to learn that decoding it fully gives an object type.

/// Accepts exactly what `String` accepts, keeping nothing.
#[derive(Default, Debug)]
pub(crate) struct CheckStr;

impl<'de> Deserialize<'de> for CheckStr {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = CheckStr;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: serde::de::Error>(self, _: &str) -> Result<CheckStr, E> {
                Ok(CheckStr)
            }
            fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> Result<CheckStr, E> {
                match std::str::from_utf8(v) {
                    Ok(_) => Ok(CheckStr),
                    Err(_) => Err(E::invalid_value(serde::de::Unexpected::Bytes(v), &self)),
                }
            }
        }
        deserializer.deserialize_string(Visitor)
    }
}

/// Accepts exactly what `serde_json::Value` accepts, keeping nothing.
#[derive(Default, Debug)]
pub(crate) struct CheckAny;

impl<'de> Deserialize<'de> for CheckAny {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = CheckAny;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("any valid JSON value")
            }
            fn visit_bool<E>(self, _: bool) -> Result<CheckAny, E> {
                Ok(CheckAny)
            }
            fn visit_i64<E>(self, _: i64) -> Result<CheckAny, E> {
                Ok(CheckAny)
            }
            fn visit_u64<E>(self, _: u64) -> Result<CheckAny, E> {
                Ok(CheckAny)
            }
            fn visit_f64<E>(self, _: f64) -> Result<CheckAny, E> {
                Ok(CheckAny)
            }
            fn visit_str<E>(self, _: &str) -> Result<CheckAny, E> {
                Ok(CheckAny)
            }
            fn visit_none<E>(self) -> Result<CheckAny, E> {
                Ok(CheckAny)
            }
            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<CheckAny, D::Error> {
                CheckAny::deserialize(d)
            }
            fn visit_unit<E>(self) -> Result<CheckAny, E> {
                Ok(CheckAny)
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<CheckAny, A::Error> {
                while seq.next_element::<CheckAny>()?.is_some() {}
                Ok(CheckAny)
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<CheckAny, A::Error> {
                while map.next_entry::<CheckStr, CheckAny>()?.is_some() {}
                Ok(CheckAny)
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}

/// Accepts exactly what `IndexMap<String, T>` accepts (for the `T` this
/// mirrors), keeping nothing.
#[derive(Debug)]
pub(crate) struct CheckMap<T>(std::marker::PhantomData<T>);

impl<T> Default for CheckMap<T> {
    fn default() -> Self {
        CheckMap(std::marker::PhantomData)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for CheckMap<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for Visitor<T> {
            type Value = CheckMap<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<CheckMap<T>, A::Error> {
                while map.next_entry::<CheckStr, T>()?.is_some() {}
                Ok(CheckMap::default())
            }
        }
        deserializer.deserialize_map(Visitor(std::marker::PhantomData))
    }
}

/// Accepts exactly what `Vec<T>` accepts (for the `T` this mirrors),
/// keeping nothing.
#[derive(Debug)]
pub(crate) struct CheckSeq<T>(std::marker::PhantomData<T>);

impl<T> Default for CheckSeq<T> {
    fn default() -> Self {
        CheckSeq(std::marker::PhantomData)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for CheckSeq<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for Visitor<T> {
            type Value = CheckSeq<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a sequence")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<CheckSeq<T>, A::Error> {
                while seq.next_element::<T>()?.is_some() {}
                Ok(CheckSeq::default())
            }
        }
        deserializer.deserialize_seq(Visitor(std::marker::PhantomData))
    }
}

/// Mirrors [`RawTypeSpec`].
#[derive(Deserialize, Default, Debug)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct CheckTypeSpec {
    #[serde(rename = "type")]
    pub ty: Option<CheckStr>,
    #[serde(rename = "$ref")]
    pub reference: Option<CheckStr>,
    pub items: Option<Box<CheckTypeSpec>>,
    pub additional_properties: Option<Box<CheckTypeSpec>>,
    pub one_of: Option<CheckSeq<CheckTypeSpec>>,
    pub discriminator: Option<CheckDiscriminator>,
    #[serde(deserialize_with = "nullable")]
    pub plain: bool,
}

/// Mirrors [`RawDiscriminator`].
#[derive(Deserialize, Default, Debug)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct CheckDiscriminator {
    #[serde(deserialize_with = "nullable")]
    pub property_name: CheckStr,
    #[serde(deserialize_with = "nullable")]
    pub mapping: CheckMap<CheckStr>,
}

/// Mirrors [`RawDefaultInfo`].
#[derive(Deserialize, Default, Debug)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct CheckDefaultInfo {
    #[serde(deserialize_with = "nullable")]
    pub environment: CheckSeq<CheckStr>,
    pub language: Option<CheckAny>,
}

/// Mirrors [`RawProperty`].
#[derive(Deserialize, Default, Debug)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct CheckProperty {
    #[serde(rename = "type")]
    pub ty: Option<CheckStr>,
    #[serde(rename = "$ref")]
    pub reference: Option<CheckStr>,
    pub items: Option<Box<CheckTypeSpec>>,
    pub additional_properties: Option<Box<CheckTypeSpec>>,
    pub one_of: Option<CheckSeq<CheckTypeSpec>>,
    pub discriminator: Option<CheckDiscriminator>,
    #[serde(deserialize_with = "nullable")]
    pub plain: bool,
    pub description: Option<CheckStr>,
    #[serde(rename = "const")]
    pub constant: Option<CheckAny>,
    pub default: Option<CheckAny>,
    pub default_info: Option<CheckDefaultInfo>,
    pub deprecation_message: Option<CheckStr>,
    pub language: Option<CheckAny>,
    #[serde(deserialize_with = "nullable")]
    pub secret: bool,
    #[serde(deserialize_with = "nullable")]
    pub replace_on_changes: bool,
    #[serde(deserialize_with = "nullable")]
    pub will_replace_on_changes: bool,
}

/// Mirrors [`RawEnumValue`].
#[derive(Deserialize, Default, Debug)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct CheckEnumValue {
    pub name: Option<CheckStr>,
    pub description: Option<CheckStr>,
    pub value: CheckAny,
    pub deprecation_message: Option<CheckStr>,
}

/// Mirrors [`RawComplexType`]; keeps only `type`.
#[derive(Deserialize, Default, Debug)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct CheckComplexType {
    pub description: Option<CheckStr>,
    #[serde(deserialize_with = "nullable")]
    pub properties: CheckMap<CheckProperty>,
    #[serde(rename = "type")]
    pub ty: Option<String>,
    #[serde(deserialize_with = "nullable")]
    pub required: CheckSeq<CheckStr>,
    pub plain: Option<CheckAny>,
    pub language: Option<CheckAny>,
    #[serde(deserialize_with = "nullable")]
    pub is_overlay: bool,
    #[serde(rename = "enum", deserialize_with = "nullable")]
    pub values: CheckSeq<CheckEnumValue>,
}
