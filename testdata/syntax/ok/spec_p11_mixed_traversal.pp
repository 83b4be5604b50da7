x = a["k"].b[c].d
