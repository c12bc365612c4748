"""The names a claim mentions: whether each project name exists and inline calls fit
(``names``), what prose asserts about names (``prosenames``), the module a reST page speaks
from (``docmodule``), object roles whose target is a module (``rolekinds``) and where a
function's ``**kwargs`` go (``kwforward``), calls in prose to a name that cannot be called
(``callability``), and project classes named in plain words, "the client" (``nouns``).
"""
