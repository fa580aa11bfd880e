"""The arcade campaign on the server (the arcade family's ``server_extension`` hook):
:mod:`.runs` keeps each user's run in the store and gives his table its rules, :mod:`.desk`
is the lobby's campaign desk, :mod:`.routes` the HTTP routes (``/campaign``,
``/campaign/start``, ``/campaign/hand``, ``/campaign/abandon``) and the
:data:`~.routes.SERVICE` the server mounts."""
