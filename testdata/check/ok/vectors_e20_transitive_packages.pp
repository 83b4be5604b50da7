// flags: --lenient
// binder-vectors E20: packages reached through a resource's types are recorded
// (here tiny, referenced by crossref's input types; the reference's example is
// remoteref reaching goalias).
resource example "crossref:index:Holder" {
}
