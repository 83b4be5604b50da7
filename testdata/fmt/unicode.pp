# Alignment counts grapheme clusters, as hclwrite does.
tags = {
  "naïve" = 1
  "日本" = 2
  "e\u0301" = 3
  "👩‍👩‍👧" = 4
  x = 5
}
