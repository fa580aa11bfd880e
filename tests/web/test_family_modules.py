"""Each family's part of the browser client comes from the family's own package, through the
server: the page imports the module ``GET /families`` names, and the table's marks are the
module's."""

from __future__ import annotations

from urllib.parse import urlparse

from playwright.sync_api import Browser, Route

from erren.web import RELEASE

from ._support import page_errors, until, vs_computer_table

GOLD_BADGE = 'zh: "金"'
"""How xiamen's module writes the gold's badge (its marks and its indicator)."""
TEST_BADGE = 'zh: "㊎"'


def test_a_xiamen_table_marks_the_gold_with_the_module_the_server_serves(
    browser: Browser, server: str
) -> None:
    """The page asks for ``/web/<release>/js/families/xiamen.js``; served with its gold badge
    changed (金 → ㊎), the gold at the centre of the xiamen table wears the changed badge, so
    the mark comes from that module and from nothing in the shared client."""
    module = f"/web/{RELEASE}/js/families/xiamen.js"
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        errors = page_errors(page)
        requested: list[str] = []
        page.on("request", lambda request: requested.append(urlparse(request.url).path))
        changed: list[int] = []

        def serve(route: Route) -> None:
            reply = route.fetch()
            text = reply.text()
            changed.append(text.count(GOLD_BADGE))
            route.fulfill(response=reply, body=text.replace(GOLD_BADGE, TEST_BADGE))

        page.route(f"**{module}", serve)
        vs_computer_table(page, server, "xiamen", {})
        assert module in requested
        assert changed == [2]  # the gold's mark and its indicator, once per page
        until(page, "!!document.querySelector('.center .indicator .tile-badge')", timeout=15000)
        badges = page.eval_on_selector_all(
            ".center .indicator .tile-badge", "els => els.map(e => e.textContent)"
        )
        assert badges == ["㊎"]
        assert page.inner_text(".table-title").startswith("厦门麻将")
        assert errors == []
    finally:
        context.close()


MODULE = "import(document.querySelector('script[type=module]').src.replace(/app[.]js$/, '{}'))"


def test_a_familys_own_moves_and_events_are_worded_by_its_module(
    browser: Browser, server: str
) -> None:
    """xiamen's and arcade's own moves, whose words now live in the families' modules, still
    become buttons with their names, keys and places among the shared ones (胡 first, 过 last),
    a kept move is still named, and their events' sentences still carry their data (the wild's
    flower, the tiles exchanged, the sea-bottom draws; 游 is a latest move, the gold is not),
    and a screen reader is told them as they come (the deal and a pass are not said); their
    refusals are worded by the rows their modules add."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        errors = page_errors(page)
        page.goto(server + "/")
        page.wait_for_selector("#btn-guest")
        legal = ["pass", "pick:5m", "discardgold", "qiangjin:3z", "sanjindao", "win", "hu"]
        buttons = page.evaluate(
            f"""async (legal) => {{
              const m = await {MODULE.format("actions.js")};
              return m.actionButtons({{legal, mode: null, pending: null, given: [],
                selectedTiles: () => [], toggleMode: () => {{}}}})
                .map((b) => [b.label, b.key, b.cls || '', b.options ? b.options[0].action
                  : b.action]);
            }}""",
            legal,
        )
        assert buttons == [
            ["胡", "h", "win", "hu"],
            ["游金胡", "h", "win", "win"],
            ["三金倒", "h", "win", "sanjindao"],
            ["抢金", "h", "win", "qiangjin:3z"],
            ["打金", "d", "", "discardgold"],
            ["搓牌", "g", "", "pick:5m"],
            ["过", " ", "pass", "pass"],
        ]
        kept = page.evaluate(
            f"""async () => {{
              const m = await {MODULE.format("reconnect.js")};
              return ['qiangjin:3z', 'pick:5m', 'discardgold'].map(m.moveLabel);
            }}"""
        )
        assert kept == ["抢金 西风", "搓牌 五万", "打金"]
        said = page.evaluate(
            f"""async () => {{
              const m = await {MODULE.format("events.js")};
              const ev = (kind, data, extra) => ({{n: 1, player: 1, kind, data, ...extra}});
              const names = ['甲', '乙'];
              return [
                m.describeEvent(ev('wild', {{flower: '1f'}}, {{player: -1, tile: '5p'}}), 0,
                  names),
                m.describeEvent(ev('exchange', {{count: 3}}), 0, names),
                m.describeEvent(ev('haidi', {{draws: 2}}), 0, names),
                m.describeLast([ev('you', {{level: 1}}), ev('gold', {{}})], 0, names),
              ];
            }}"""
        )
        assert said == [
            "财神（花牌 春） 五饼",
            "乙 换牌 3 张",
            "乙 海底捞月 2 张",
            "乙 进入游金",
        ]
        heard = page.evaluate(
            f"""async () => {{
              const m = await {MODULE.format("announce.js")};
              const ev = (kind, data, extra) => ({{n: 1, player: 1, kind, data, ...extra}});
              m.clearAnnouncements();
              m.announceEvents([ev('deal', {{}}), ev('gold', {{}}, {{player: -1, tile: '5p'}}),
                ev('pick', {{}}, {{tile: '3s'}}), ev('you', {{level: 2}}), ev('pass', {{}})],
                0, ['甲', '乙'], () => '');
              return [...document.querySelectorAll('#announce p')].map((p) => p.textContent);
            }}"""
        )
        assert heard == ["翻金 五饼", "乙 搓牌 三条", "乙 进入游金"]
        refused = page.evaluate(
            f"""async () => {{
              const m = await {MODULE.format("i18n.js")};
              return [m.failure({{code: 'no-exchange', params: {{action: '0:exchange'}}}}),
                m.failure({{code: 'not-three-golds', params: {{action: '0:sanjindao'}}}})];
            }}"""
        )
        assert refused == ["换牌已经结束", "三金倒需要三张金牌"]  # the families' own rows
        assert errors == []
    finally:
        context.close()
