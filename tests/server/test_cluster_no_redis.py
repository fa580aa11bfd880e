"""Without ``--redis`` the server is the single process it always was: it starts, deals a
table and plays, with no Redis anywhere and the ``redis`` package never imported."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

SCRIPT = textwrap.dedent(
    """
    import sys
    from fastapi.testclient import TestClient
    from erren.server.app import create_app

    app = create_app(sys.argv[1])
    with TestClient(app) as http:
        token = http.post("/auth/guest").json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        table = http.post("/tables/vs-computer", json={"family": "guobiao-2p"}, headers=auth)
        assert table.status_code == 201, table.text
        with http.websocket_connect("/ws") as ws:
            ws.send_json({"type": "auth", "token": token})
            ws.send_json({"type": "join", "table": table.json()["table"]})
            kinds = set()
            while "snapshot" not in kinds:
                kinds.add(ws.receive_json()["type"])
        assert http.get("/health").json()["tables"] == 1
    print(sorted(m for m in sys.modules if m == "redis" or m.startswith("redis.")))
    """
)


def test_a_single_server_plays_without_redis(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, f"sqlite:///{tmp_path / 'erren.sqlite3'}"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={"PYTHONPATH": str(Path(__file__).parents[3] / "src"), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip().splitlines()[-1] == "[]"  # no redis module was imported
