a = partial::
