// The provider outputs that are not string-typed are not kept: an integer
// enum, an object and a number.
resource prov "pulumi:providers:provenum" {
}

intEnum = prov.anIntEnum
object = prov.anObject
number = prov.aNumber
