// flags: --lenient
// binder-vectors E41: an undefined root is a warning under non-strict options.
localVariable = component.firstValue
