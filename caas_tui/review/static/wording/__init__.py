"""A claim's words, read without the project: stated defaults, return types and exceptions
(``facts``), which kinds of assertion a claim makes (``assertions``, ``effects``,
``kindphrases``), quantities and units (``units``), the passive voice read as the active
(``voice``) and comparing prose by its words (``words``). Pure text work.
"""
