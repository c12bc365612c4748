"""What a function does, followed through the project code it calls: where a call goes
(``delegation``), which exceptions it can raise (``raisecheck``) and what it returns
(``rettypes``). The checks judge claims with these; nothing here reports a finding.
"""
