"""The site in a real browser: headless Chromium (Debian's `chromium` and `chromium-driver`),
driven by selenium, opening the built site from disk (file://, no server). Without Chromium
these tests skip, except under CI (JUDGE_CI=1, set by .ci/run, which installs it)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from judge.engine import ruleset
from judge.site import build, pages, sources
from archivekit import site_file
from browserkit import chromium

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


@pytest.fixture(scope="module")
def browser():
    yield from chromium()


@pytest.fixture(scope="module")
def site(games_dir, tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    count, warnings = build.build(games_dir, out)
    assert warnings == [] and count == len(ruleset.every()) + 1
    return out


def records(games_dir) -> dict:
    return {r["game"]: r for _, r in sources.records(games_dir)[0]}


def shown(driver, expected: int | None = None) -> list[int]:
    """The moves whose report is on screen (once it is `expected`'s, given time: the page
    draws a move's report when the browser tells it that the link changed, a moment later)."""
    def now():
        return driver.execute_script(
            "return [...document.querySelectorAll('.replay pre')].filter(e => getComputedStyle(e).display != 'none')"
            ".map(e => +e.dataset.move)")
    if expected is not None:
        from selenium.webdriver.support.ui import WebDriverWait

        try:
            WebDriverWait(driver, 5, poll_frequency=0.02).until(lambda d: now() == [expected])
        except Exception:  # noqa: BLE001 - the assertion says what is on screen
            pass
    return now()


def report_on_screen(driver) -> str:
    return driver.execute_script("return document.querySelector('.replay pre').textContent")


def key(driver, name: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    ActionChains(driver).send_keys(getattr(Keys, name)).perform()


def test_the_index_lists_every_game_with_its_status(browser, site, games_dir):
    from selenium.webdriver.common.by import By

    browser.get((site / "index.html").as_uri())
    rows = browser.find_elements(By.CSS_SELECTOR, "tr.game")
    assert len(rows) == len(records(games_dir))
    text = {r.find_element(By.TAG_NAME, "a").text: r.text for r in rows}
    assert "waiting for" in text["running"] and "over; winners:" in text["mogul"] and "audit passes" in text["mogul"]


# Cost (7 s): a real browser clicks and keys through a game's moves, waiting for each report.
def test_a_game_page_steps_with_the_buttons_and_the_arrow_keys(browser, site, games_dir):
    from selenium.webdriver.common.by import By

    record = records(games_dir)["mogul"]
    last = record["move"]
    texts = {r["move"]: r["text"] for r in pages.reports(record)}
    browser.get(site_file(site, "mogul", "mogul").as_uri())
    entries = browser.execute_script("return history.length")
    assert shown(browser, last) == [last] and report_on_screen(browser) == texts[last]  # the game as it ends
    browser.find_element(By.CSS_SELECTOR, "#replay a.prev").click()
    assert shown(browser, last - 1) == [last - 1] and browser.current_url.endswith(f"#move={last - 1}")
    assert report_on_screen(browser) == texts[last - 1]
    key(browser, "ARROW_LEFT")
    key(browser, "ARROW_LEFT")
    assert shown(browser, last - 3) == [last - 3] and report_on_screen(browser) == texts[last - 3]
    key(browser, "ARROW_RIGHT")
    assert shown(browser, last - 2) == [last - 2]
    browser.find_element(By.CSS_SELECTOR, "#replay a.first").click()
    assert shown(browser, 1) == [1] and report_on_screen(browser) == texts[1]
    key(browser, "ARROW_LEFT")  # (stays at the first)
    assert shown(browser, 1) == [1]
    browser.find_element(By.CSS_SELECTOR, "#replay a.next").click()
    assert shown(browser, 2) == [2] and browser.find_element(By.CSS_SELECTOR, "#replay .at").text == f"move 2 of {last}"
    key(browser, "END")
    assert shown(browser, last) == [last]
    key(browser, "ARROW_LEFT")
    key(browser, "ARROW_LEFT")
    assert shown(browser, last - 2) == [last - 2]
    assert browser.execute_script("return history.length") == entries  # (steps replace the place: issue 47)
    browser.set_script_timeout(60)
    # every report the page rebuilds from its changes is the report of its move, whole (150 moves a
    # load of the page: Chromium allows no more than 200 changes of the address in 10 seconds)
    moves = list(texts)
    for at in range(0, len(moves), 150):
        browser.get(site_file(site, "mogul", "mogul").as_uri())
        got = browser.execute_async_script("""
            const [moves, done] = arguments, out = {}, pre = document.querySelector('.replay pre');
            (async () => {
              for (const m of moves) {
                location.hash = 'move=' + m;
                while (pre.dataset.move !== String(m)) await new Promise(r => setTimeout(r, 5));
                out[m] = pre.textContent;
              }
              done(out);
            })();""", moves[at:at + 150])
        assert got == {str(m): texts[m] for m in moves[at:at + 150]}


def test_a_link_to_a_move_opens_it(browser, site):
    from selenium.webdriver.common.by import By

    browser.get(site_file(site, "rumors", "running").as_uri() + "#move=17")
    assert shown(browser, 17) == [17]
    report = browser.find_element(By.CSS_SELECTOR, "#replay pre").text
    assert "public report, move 17" in report
    browser.find_element(By.CSS_SELECTOR, '#moves a[href="#move=5"]').click()
    assert shown(browser, 5) == [5] and "public report, move 5" in browser.find_element(By.CSS_SELECTOR, "#replay pre").text


def public_before_the_end(record) -> bool:
    """Whether any player's score was public before the end (rumors: worth is secret till then)."""
    rows = record["moves"][:-1] if record["game_over"] else record["moves"]
    return any(row["scores"] for row in rows)


def test_the_charts_draw_a_series_a_player_and_company_with_a_point_a_move(browser, site, games_dir):
    from selenium.webdriver.common.by import By

    for name, record in records(games_dir).items():
        browser.get(site_file(site, record["ruleset"], name).as_uri())
        charts = browser.find_elements(By.CSS_SELECTOR, "#charts svg.chart:not(.bars)")
        companies = {c for row in record["moves"] for c, _ in row["prices"]}
        scores = public_before_the_end(record)
        assert len(charts) == int(scores) + int(bool(companies)), name
        lines = [[(p.get_attribute("data-name"), int(p.get_attribute("data-points")))
                  for p in chart.find_elements(By.CSS_SELECTOR, "polyline.series")] for chart in charts]
        if scores:
            assert [n for n, _ in lines[0]] == record["players"]
            assert all(points == sum(1 for row in record["moves"] if row["scores"]) for _, points in lines[0])
        if companies:
            assert sorted(n for n, _ in lines[-1]) == sorted(companies)
        if record["game_over"]:
            bars = browser.find_elements(By.CSS_SELECTOR, "#charts svg.bars rect.bar")
            assert len(bars) == len(record["players"])


def test_where_worth_is_secret_the_page_says_so_instead_of_an_empty_chart(browser, site, games_dir):
    from selenium.webdriver.common.by import By

    for name in ("rumors", "running"):
        browser.get(site_file(site, "rumors", name).as_uri())
        note = browser.find_element(By.CSS_SELECTOR, "#charts .chart-note").text
        assert "worth is secret until the end" in note
        assert ("the final scores are below" in note) == records(games_dir)[name]["game_over"]
        assert not browser.find_elements(By.CSS_SELECTOR, "#charts polyline.series[class~=seat]")
    browser.get(site_file(site, "mogul", "mogul").as_uri())
    assert not browser.find_elements(By.CSS_SELECTOR, "#charts .chart-note")


COLOURS = """return [...document.querySelectorAll('#charts .series.seat, #charts .bar.seat, #charts .legend .seat')]
  .map(e => [e.dataset.name || e.parentNode.textContent, getComputedStyle(e)[
     e.tagName == 'polyline' ? 'stroke' : e.tagName == 'rect' ? 'fill' : 'backgroundColor']])"""


def test_a_player_has_one_colour_on_every_chart_and_the_map_and_each_player_another(browser, site, games_dir):
    for name, record in records(games_dir).items():
        browser.get(site_file(site, record["ruleset"], name).as_uri())
        seen: dict[str, set] = {}
        for player, colour in browser.execute_script(COLOURS):
            seen.setdefault(player, set()).add(colour)
        if record["ruleset"] == "mogul-board":  # each depot on the map in its holder's colour
            for player, colour in browser.execute_script(
                    "return [...document.querySelectorAll('#board .legend:not(.networks) .seat')].map(e => "
                    "[e.parentNode.textContent.split(' ')[0], getComputedStyle(e).backgroundColor])"):
                seen.setdefault(player, set()).add(colour)
            owners = {s["code"]: s["owner"] for net in record["view"]["map"] for s in net["spaces"] if s["owner"]}
            drawn = browser.execute_script(
                "return [...document.querySelectorAll('#board .space')].map(g => [g.dataset.space, "
                "getComputedStyle(g.querySelector('.depot')).fill])")
            assert len(owners) >= 4
            for space, fill in drawn:
                if space in owners:
                    seen[owners[space]].add(fill)
                else:
                    assert fill == "rgb(255, 255, 255)", space
        charted = (record["game_over"] or public_before_the_end(record))
        assert set(seen) == (set(record["players"]) if charted else set()), name
        assert all(len(colours) == 1 for colours in seen.values()), (name, seen)
        assert len({c for colours in seen.values() for c in colours}) == len(seen), name


CLIPPED = """return [...document.querySelectorAll('#charts svg, #board svg')].flatMap(svg => {
  const box = svg.getBoundingClientRect();
  return [...svg.querySelectorAll('text')].filter(t => t.getClientRects().length).map(t => [t.textContent,
    t.getBoundingClientRect()]).filter(([_, r]) => r.left < box.left - 0.5 || r.right > box.right + 0.5
    || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5).map(([text, r]) => text);
})"""


# Cost (8 s): every chart and drawing of every ruleset's page measured in Chromium at two
# widths.
def test_no_text_of_a_chart_or_drawing_is_cut_at_desktop_or_phone_width(browser, site, games_dir):
    try:
        for width in (900, 360):
            browser.set_window_size(width, 900)
            for name, record in records(games_dir).items():
                browser.get(site_file(site, record["ruleset"], name).as_uri())
                assert browser.execute_script("return document.querySelectorAll('#charts svg text').length") > 5
                assert browser.execute_script(CLIPPED) == [], (name, width)
                assert browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth + 1")
    finally:
        browser.set_window_size(900, 1100)


def test_the_ticks_of_every_chart_are_round(browser, site, games_dir):
    """Every value and move axis steps by 1, 2 or 5 times a power of ten, from a multiple of it."""
    for name, record in records(games_dir).items():
        browser.get(site_file(site, record["ruleset"], name).as_uri())
        axes = browser.execute_script(
            "return [...document.querySelectorAll('#charts svg.line')].flatMap(svg => [':not([text-anchor])', "
            "'[text-anchor]:not(.axis)'].map(which => [...svg.querySelectorAll('text.tick' + which)]"
            ".map(t => +t.textContent)))")
        assert len(axes) == 2 * len(browser.find_elements("css selector", "#charts svg.line")) and axes, name
        for ticks in axes:
            assert len(ticks) >= 2, (name, ticks)
            step = ticks[1] - ticks[0]
            assert {b - a for a, b in zip(ticks, ticks[1:])} == {step} and str(step).rstrip("0") in "125", ticks
            assert all(t % step == 0 for t in ticks), ticks


def test_the_map_and_the_market_follow_the_move_shown(browser, site, games_dir):
    """The drawing at #move=N shows the board of the public view at the start of move N (the
    game replayed here), for moves picked across the game."""
    from selenium.webdriver.common.by import By

    from judge.record import history, moves
    from judge.store import gamefile

    for name in ("mogul-board", "stock-round"):
        game = gamefile.load(games_dir / f"{name}.toml")
        boards = {}
        history.each_move(game, lambda at: boards.setdefault(at.move, moves.board(at.view(None))))
        browser.get(site_file(site, name, name).as_uri())
        assert browser.find_element(By.CSS_SELECTOR, "#board .board-move").text == str(game.move)
        for move in sorted({2, game.move // 3, game.move // 2, game.move - 5, game.move}):
            browser.get(site_file(site, name, name).as_uri() + f"#move={move}")
            assert browser.find_element(By.CSS_SELECTOR, "#board .board-move").text == str(move)
            board = boards[move]
            if name == "mogul-board":
                tags = {p: p[0].upper() for p in game.players}
                drawn = browser.execute_script("return Object.fromEntries([...document.querySelectorAll('#board .space')]"
                                               ".map(g => [g.dataset.space, g.querySelector('.tag').textContent]))")
                assert {s: t for s, t in drawn.items() if t} == {s: tags[p] for s, p in board["depots"]}, move
            else:
                cells = browser.execute_script(
                    "const at = (g) => { const b = g.getBoundingClientRect(); return [b.x + b.width / 2, b.y + b.height / 2]; };"
                    "const cells = [...document.querySelectorAll('#board .cell')];"
                    "return [...document.querySelectorAll('#board .token:not(.hidden)')].map(g => { const [x, y] = at(g);"
                    " const c = cells.find(c => { const b = c.getBoundingClientRect();"
                    " return b.left <= x && x <= b.right && b.top <= y && y <= b.bottom; });"
                    " return [g.dataset.company, c.dataset.cell]; })")
                assert sorted(cells) == sorted([co, f"{r},{c}"] for r, c, co in board["market"]), move
                pool = browser.execute_script("return [...document.querySelectorAll('#board .pooled:not(.empty)')]"
                                              ".map(g => [g.dataset.company, g.querySelector('.count').textContent])")
                assert pool == [[co, f"×{n}"] for co, n in board["pool"]], move


def test_a_screenshot_of_each_rulesets_game_page(browser, site, tmp_path):
    """Kept under docs/screenshots/ when JUDGE_SCREENSHOTS=1 (for the README); a phone-wide one too."""
    keep = os.environ.get("JUDGE_SCREENSHOTS") == "1"
    browser.set_window_size(760, 600)
    for rs in ruleset.every():
        browser.get(site_file(site, rs.name, rs.name).as_uri() + "#move=20")
        browser.execute_script("window.scrollTo(0, 0)")  # the page's head above the report
        path = (SCREENSHOTS if keep else tmp_path) / f"{rs.name}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        assert browser.save_screenshot(str(path)) and path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    for page, part, name in (("mogul-board", "#board", "mogul-board-map"), ("stock-round", "#board", "stock-round-market"),
                             ("stock-round", "#charts", "stock-round-charts")):
        browser.set_window_size(900, 1100)
        browser.get(site_file(site, page, page).as_uri())
        path = (SCREENSHOTS if keep else tmp_path) / f"{name}.png"
        assert browser.find_element("css selector", part).screenshot(str(path))
    browser.set_window_size(360, 640)
    try:
        browser.get(site_file(site, "stock-round", "stock-round").as_uri() + "#charts")
        path = (SCREENSHOTS if keep else tmp_path) / "phone.png"
        assert browser.save_screenshot(str(path))
        assert browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth + 1")
    finally:
        browser.set_window_size(900, 1100)


PHONE = 375  # px: a phone's width (issue 47, item 4)


def test_at_phone_width_the_index_the_map_and_the_league_fit_and_say_what_they_show(browser, site, tmp_path):
    """The index's cards and the league's rows label each value, the map is scaled to the width,
    the step buttons keep one line; nothing but the report (which scrolls in its own box) is
    wider than the screen. Kept under docs/screenshots/ when JUDGE_SCREENSHOTS=1."""
    keep = os.environ.get("JUDGE_SCREENSHOTS") == "1"
    wide = ("return [...document.querySelectorAll(arguments[0])].filter(e => e.getBoundingClientRect().right > "
            "document.documentElement.clientWidth + 1).length")
    labels = "return [...document.querySelectorAll(arguments[0])].map(td => getComputedStyle(td, '::before').content)"
    browser.set_window_size(PHONE, 800)
    try:
        assert browser.execute_script("return window.innerWidth") <= PHONE
        browser.get((site / "index.html").as_uri())
        assert browser.execute_script(labels, ".games tbody tr:first-child td")[:6] == [
            '"Game"', '"Ruleset"', '"Players"', '"Move"', '"Status"', '"Links"']
        assert browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth + 1")
        assert browser.save_screenshot(str((SCREENSHOTS if keep else tmp_path) / "phone-index.png"))
        browser.get(site_file(site, "mogul-board", "mogul-board").as_uri())
        assert browser.execute_script(wide, "#board svg, #charts svg, header, .steps") == 0
        tops = browser.execute_script("return [...document.querySelectorAll('.steps > *')].map(e => e.getBoundingClientRect().top)")
        assert len(tops) == 5 and max(tops) - min(tops) < 12  # one line of buttons
        browser.execute_script("document.getElementById('board').scrollIntoView()")
        assert browser.save_screenshot(str((SCREENSHOTS if keep else tmp_path) / "phone-game.png"))
        browser.get((site / "league.html").as_uri())
        assert browser.execute_script(wide, "table.ranking, table.ranking td") == 0
        assert browser.execute_script(labels, "table.ranking tbody tr:first-child td")[:4] == [
            '"#"', '"player"', '"rating"', '"skill ± sigma"']
        assert browser.save_screenshot(str((SCREENSHOTS if keep else tmp_path) / "phone-league.png"))
    finally:
        browser.set_window_size(900, 1100)


def test_the_index_links_the_league_page(browser, site, games_dir):
    from selenium.webdriver.common.by import By

    browser.get((site / "index.html").as_uri())
    browser.find_element(By.LINK_TEXT, "League: ratings and reliability").click()
    assert browser.current_url.endswith("/league.html") and browser.title == "League"
    sections = browser.find_elements(By.CSS_SELECTOR, "section.league")
    finished = {r["ruleset"] for r in records(games_dir).values() if r.get("complete")}
    assert {s.get_attribute("id") for s in sections} == {f"league-{rs}" for rs in finished} | {"league-all"}
    assert "alice" in sections[0].find_element(By.TAG_NAME, "tbody").text
