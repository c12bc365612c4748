"""What kind of value a claim says something is, against the annotations: a parameter entry's
stated type and described kind (``paramchecks``), required or optional (``requiredness``),
the arguments a doc's code passes (``argkinds``), "``x`` is a ``C``" (``isclaims``) and the
builtin type a claim gives an unannotated function (``forwardtypes``).
"""
