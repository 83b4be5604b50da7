// pcl deviation (issue 13 §2): `pcl check main.pp` of a multi-file program.
// Names the other files of the directory declare are `dynamic` here and give
// one `declared-in-sibling` note per declaring file, at the first use, instead
// of an `undefined-variable` error per use (the reference binds every file of
// the directory together and has no such case).
resource widget "tiny:index:Widget" {
  name = "${siteName}-${env}"
}
output url { value = "https://${siteName}:${port}/${widget.name}" }
output first { value = helper }
output count { value = length(zones) + length(regions) + length(more) + length(evenMore) }
output fromComponent { value = comp.said }
