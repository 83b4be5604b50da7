a = partial::namespaced
