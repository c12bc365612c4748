"""Stated defaults against the code: resolved defaults and defaults written as reST roles
(``symdefaults``), attribute defaults (``attrdefaults``), defaults in words
(``worddefaults``), in a section's prose (``sectiondefaults``) or a table row
(``tabledefaults``), counts on a noun (``counts``) and listed members (``members``);
``numbers`` reads a resolved default (``Decimal``, ``timedelta`` ...) as a quantity.
"""
