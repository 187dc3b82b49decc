"""The club's accounts, apart from HTTP: the rules of names and passwords and the passwords' hashes
(:mod:`.rules`), the session tokens (:mod:`.sessions`) and the throttle on failed sign-ins
(:mod:`.throttle`).  The web table (:mod:`ginnyo.web.http.accounts`) answers with them; its store keeps them."""
