import doctest
import importlib
import warnings

import moneta
import pytest


def test_deprecated_rate_table_alias():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        alias = moneta.RateTable
    assert alias is moneta.RateBook
    assert caught and issubclass(caught[0].category, DeprecationWarning)


def test_removed_names_are_gone():
    with pytest.raises(AttributeError):
        moneta.format  # noqa: B018
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("moneta.fx")
    assert not hasattr(moneta.Money, "to_cents")


@pytest.mark.parametrize(
    "name",
    ["moneta.currency", "moneta.rounding", "moneta.allocation", "moneta.money", "moneta.formatting",
     "moneta.parsing", "moneta.bag"],
)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, extraglobs=vars(moneta))
    assert result.failed == 0
