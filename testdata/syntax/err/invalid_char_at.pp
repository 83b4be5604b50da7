a = @b
