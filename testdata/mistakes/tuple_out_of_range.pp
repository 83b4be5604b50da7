# mistake: line 3: tuple-index-out-of-range: an index past the end of a tuple
pair = ["a", "b"]
third = pair[5]
