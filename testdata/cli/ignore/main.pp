a = nope # pcl-ignore: undefined-variable

# pcl-ignore: undefined-variable
b = alsoNope

c = stillNope

# pcl-ignore: unknown-function
d = 1
