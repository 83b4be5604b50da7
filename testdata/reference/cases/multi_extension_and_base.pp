
package {
    baseProviderName = "extbase"
    baseProviderVersion = "45.0.0"
    parameterization {
        name = "exta"
        version = "1.0.0"
        value = "eA=="
    }
}

package {
    baseProviderName = "extbase"
    baseProviderVersion = "45.0.0"
    parameterization {
        name = "extb"
        version = "1.0.0"
        value = "eA=="
    }
}

resource a "exta:index:Aye" { }

resource b "extb:index:Bee" { }

resource base "extbase:index:Base" { }
