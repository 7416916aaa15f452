"""The playground in a real browser: headless Chromium (Debian's) through
WebDriver, against the real server that tests/browser/run.sh starts.

Environment: KIBITZ_URL (the running server), KIBITZ_BIN (the binary, for
the test that needs a server it can stop), SCREENSHOT_DIR (where each game's
screen is saved).
"""

import json
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
import unittest
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

URL = os.environ.get("KIBITZ_URL", "http://127.0.0.1:8080").rstrip("/")
BIN = os.environ.get("KIBITZ_BIN", "target/release/kibitz")
SHOTS = os.environ.get("SCREENSHOT_DIR", "target/browser-screenshots")
DESKTOP = (1280, 1500)
PHONE = (390, 844)


def make_driver():
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars"):
        options.add_argument(arg)
    options.add_argument(f"--window-size={DESKTOP[0]},{DESKTOP[1]}")
    # The chromedriver of the same Debian release: selenium must not try to
    # download a driver of its own.
    service = Service(executable_path=os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    return webdriver.Chrome(options=options, service=service)


def api(method, path, body=None, token=None, base=URL):
    """The API straight, to check the page against the server's own answers."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method)
    if body is not None:
        req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


STAND_IN_ID = "5" * 32

# Answers the page's POST /matches for number-square with the given match
# object; every other request goes to the server.
NUMBER_SQUARE_STAND_IN = """
const fake = arguments[0], real = window.fetch.bind(window);
window.fetch = (url, init) => {
  const body = init && init.body ? JSON.parse(init.body) : {};
  if (String(url) === "/matches" && body.game === "number-square") {
    return Promise.resolve(new Response(JSON.stringify(fake), { status: 201, headers: { "Content-Type": "application/json" } }));
  }
  return real(url, init);
};
"""


def contract_number_square_match():
    """A Number Square match as the contract describes it: 4x4 (small enough
    for an exact, hence repeatable, analysis), two tiles taken."""
    values = [[(7 * (4 * r + c)) % 16 + 1 for c in range(4)] for r in range(4)]
    human, ai = values[0][1], values[1][1]
    board = [row[:] for row in values]
    board[0][1] = None
    board[1][1] = None
    at = "2026-01-01T00:00:00Z"
    return {
        "id": STAND_IN_ID,
        "token": "0" * 64,
        "game": "number-square",
        "options": {"size": 4},
        "ai": {"strategy": "best", "level": 10},
        "ai_first": False,
        "status": "in_progress",
        "ply": 2,
        "state": {"board": board, "scores": {"human": human, "ai": ai}},
        # Every tile on the edge or next to a taken one, as the server lists them.
        "legal_moves": [
            {"row": r, "col": c}
            for r in range(4)
            for c in range(4)
            if board[r][c] is not None
            and (r in (0, 3) or c in (0, 3) or any(board[y][x] is None for y, x in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))))
        ],
        "history": [
            {"ply": 1, "actor": "human", "move": {"row": 0, "col": 1}, "roll": None, "at": at},
            {"ply": 2, "actor": "ai", "move": {"row": 1, "col": 1}, "roll": None, "at": at},
        ],
        "result": None,
    }


def fen_pieces(fen):
    """Square -> piece letter of a FEN's placement ("e1": "K")."""
    pieces = {}
    for i, rank in enumerate(fen.split()[0].split("/")):
        file = 0
        for ch in rank:
            if ch.isdigit():
                file += int(ch)
            else:
                pieces[f"{'abcdefgh'[file]}{8 - i}"] = ch
                file += 1
    return pieces


def xiangqi_pieces(fen):
    """Point -> "side kind" of a xiangqi FEN ("e1": "red k")."""
    pieces = {}
    for i, rank in enumerate(fen.split()[0].split("/")):
        file = 0
        for token in re.findall(r"\d+|\D", rank):
            if token.isdigit():
                file += int(token)
            else:
                kind = {"e": "b", "h": "n"}.get(token.lower(), token.lower())
                pieces[f"{'abcdefghi'[file]}{10 - i}"] = f"{'black' if token.islower() else 'red'} {kind}"
                file += 1
    return pieces


def sfen_pieces(sfen):
    """Square -> "side kind" of an SFEN's board ("5i": "sente K", "2b": "sente +B")."""
    pieces = {}
    for row, rank in enumerate(sfen.split()[0].split("/")):
        column = 0
        for token in re.findall(r"\d+|\+?[A-Za-z]", rank):
            if token.isdigit():
                column += int(token)
            else:
                pieces[f"{9 - column}{'abcdefghi'[row]}"] = f"{'gote' if token[-1].islower() else 'sente'} {token.upper()}"
                column += 1
    return pieces


def xiangqi_points(uci):
    """"b3b10" -> ["b3", "b10"]."""
    return re.fullmatch(r"([a-i]\d+)([a-i]\d+)", uci).groups()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Playground(unittest.TestCase):
    driver = None

    @classmethod
    def setUpClass(cls):
        os.makedirs(SHOTS, exist_ok=True)
        cls.driver = make_driver()

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()

    def setUp(self):
        d = self.driver
        d.set_window_size(*DESKTOP)
        d.get(URL + "/")
        d.execute_script("localStorage.clear()")
        d.get(URL + "/")
        self.wait_for(lambda: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")
        self.console_checked = False

    def tearDown(self):
        # A JavaScript error is a failure even when the screen looks right.
        logs = [e for e in self.driver.get_log("browser") if e["level"] == "SEVERE"]
        # 4xx answers the tests provoke on purpose show up as failed loads.
        logs = [e for e in logs if "the server responded with a status of 4" not in e["message"]]
        self.assertEqual(logs, [], "errors in the browser console")

    # ---- helpers ----------------------------------------------------------

    def wait_for(self, condition, timeout=30, message=""):
        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=0.1).until(lambda _: condition())
        except TimeoutException:
            self.fail(f"timed out waiting: {message or condition}; status: {self.text('status')!r}; error: {self.error_text()!r}")

    def el(self, css):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def els(self, css):
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def text(self, element_id):
        found = self.driver.find_elements(By.ID, element_id)
        return found[0].text if found else ""

    def error_text(self):
        box = self.el("#error")
        return box.text if box.is_displayed() else ""

    def body_data(self, key):
        return self.el("body").get_attribute(f"data-{key}")

    def ply(self):
        return int(self.el("#status").get_attribute("data-ply") or -1)

    def idle(self):
        return "busy" not in (self.el("body").get_attribute("class") or "")

    def saved(self):
        return self.driver.execute_script("return JSON.parse(localStorage.getItem('kibitz.playground.match'))")

    def server_match(self):
        s = self.saved()
        status, m = api("GET", f"/matches/{s['id']}", token=s["token"])
        self.assertEqual(status, 200, m)
        return m

    def shot(self, name):
        path = os.path.join(SHOTS, name)
        self.driver.save_screenshot(path)
        return path

    def start(self, game, options=None, level=10, ai_first=False, expect_error=False):
        d = self.driver
        before = self.el("#match-meta").get_attribute("data-match-id")
        Select(self.el("#game")).select_by_value(game)
        for name, value in (options or {}).items():
            field = self.el(f"#opt-{name}")
            if field.get_attribute("type") == "checkbox":
                if field.is_selected() != value:
                    field.click()
            elif field.tag_name == "select":
                Select(field).select_by_value(value)
            else:
                field.clear()
                field.send_keys(str(value))
        d.execute_script(
            "const l = document.getElementById('level'); l.value = arguments[0];"
            "l.dispatchEvent(new Event('input'));",
            level,
        )
        self.el(f'input[name="starts"][value="{"ai" if ai_first else "human"}"]').click()
        self.el("#start").click()
        if expect_error:
            self.wait_for(lambda: self.error_text() != "", message="an error message")
            return None
        self.wait_for(
            lambda: self.el("#match-meta").get_attribute("data-match-id") not in (None, "", before),
            message=f"a new {game} match",
        )
        self.assertEqual(self.body_data("game"), game)
        self.assertEqual(self.error_text(), "")
        return self.ply()

    def pig_screen(self):
        return {
            "ply": self.ply(),
            "you": self.el('[data-score="human"]').text,
            "ai": self.el('[data-score="ai"]').text,
            "turn": self.text("pig-turn-total"),
            "history": len(self.els("#history li")),
        }

    def after_move(self, before):
        """Waits until the page shows a later ply than `before` (or an error)."""
        self.wait_for(lambda: self.idle() and (self.ply() > before or self.error_text()), message="the move's answer")
        self.assertEqual(self.error_text(), "", "the move failed")

    def check_review(self, m, shot):
        """The review panel of a finished match shows what the review
        endpoint says: each side's figures, one graph point per decision,
        and every judgment on the history list."""
        self.wait_for(lambda: self.els("#review .review-graph"), message="the review panel")
        s = self.saved()
        status, review = api("GET", f"/matches/{s['id']}/review", token=s["token"])
        self.assertEqual(status, 200, review)
        for side in ("human", "ai"):
            figures = review["players"][side]
            for field in ("inaccuracies", "mistakes", "blunders"):
                self.assertEqual(self.el(f'#review tr[data-side="{side}"] td[data-field="{field}"]').text, str(figures[field]))
            accuracy = self.el(f'#review tr[data-side="{side}"] td[data-field="accuracy"]').text
            self.assertEqual(accuracy, "–" if figures["accuracy"] is None else f"{figures['accuracy']:.1f}")
        points = self.el("#review polyline.you").get_attribute("points").split()
        self.assertEqual(len(points), len(review["moves"]) + 1)
        marked = {int(li.get_attribute("value")): li.get_attribute("data-judgment") for li in self.els("#history li[data-judgment]")}
        self.assertEqual(marked, {e["ply"]: e["judgment"] for e in review["moves"]})
        bad = [e for e in review["moves"] if e["judgment"] in ("inaccuracy", "mistake", "blunder")]
        self.assertEqual(len(self.els("#review circle.mark")), len(bad))
        self.driver.execute_script("document.getElementById('review').scrollIntoView()")
        self.shot(shot)
        return review

    # ---- the games --------------------------------------------------------

    def test_a_finished_pig_match_is_reviewed_with_both_win_probability_curves(self):
        self.start("pig", {"goal": 12}, level=3)
        for _ in range(200):
            if self.body_data("status") != "in_progress":
                break
            before = self.ply()
            turn = int(self.text("pig-turn-total") or 0)
            self.el("#pig-hold" if turn >= 6 else "#pig-roll").click()
            self.after_move(before)
        self.assertEqual(self.body_data("status"), "finished")
        review = self.check_review(self.server_match(), "pig-review.png")
        you = self.el("#review polyline.you").get_attribute("points").split()
        ai = self.el("#review polyline.ai").get_attribute("points").split()
        self.assertEqual(len(you), len(ai))
        # The two curves are each other's complement: mirror images about 50%.
        mid = None
        for a, b in zip(you, ai):
            ya, yb = float(a.split(",")[1]), float(b.split(",")[1])
            mid = (ya + yb) / 2 if mid is None else mid
            self.assertAlmostEqual((ya + yb) / 2, mid, places=0)
        self.assertTrue(all(isinstance(e["value_before"], (int, float)) or "points" in e["value_before"] for e in review["moves"]))

    def test_the_game_list_and_option_forms_come_from_the_catalog(self):
        status, catalog = api("GET", "/games")
        self.assertEqual(status, 200)
        playable = [g for g in catalog["games"] if g["endpoints"]["matches"]]
        listed = [(o.get_attribute("value"), o.text) for o in Select(self.el("#game")).options]
        self.assertEqual(listed, [(g["id"], g["name"]) for g in playable])
        for game in playable:
            Select(self.el("#game")).select_by_value(game["id"])
            for option in game["options"]:
                fields = self.els(f"#opt-{option['name']}")
                if option["type"] == "array" and option["name"] == "board":
                    self.assertEqual(fields, [], "a whole board is not typed in the form")
                    continue
                self.assertEqual(len(fields), 1, f"{game['id']}.{option['name']}")
                field = fields[0]
                default = option["default"]
                if option["type"] == "boolean":
                    self.assertEqual(field.is_selected(), default)
                elif option["type"] == "array":
                    self.assertEqual(field.get_attribute("value"), ", ".join(str(v) for v in default or []))
                else:
                    self.assertEqual(field.get_attribute("value"), "" if default is None else str(default), f"{game['id']}.{option['name']}")
        # A match started with every field at its default gets the catalog's defaults.
        self.start("connect-four")
        m = self.server_match()
        entry = next(g for g in playable if g["id"] == "connect-four")
        self.assertEqual(m["options"], {o["name"]: o["default"] for o in entry["options"]})

    def test_tictactoe_whole_match_by_clicking_the_ai_at_level_10_never_loses(self):
        self.start("tictactoe", level=10)
        # The first move by keyboard: focus the centre and press Enter.
        centre = self.el('#board button[data-key="1,1"]')
        centre.send_keys(Keys.ENTER)
        self.after_move(0)
        focused = self.driver.execute_script("return document.activeElement.closest('#board') !== null")
        self.assertTrue(focused, "keyboard focus stays on the board after a move")

        # The analysis shows, for every empty cell, what /tictactoe/move says.
        self.el("#analysis-toggle").click()
        self.wait_for(lambda: self.els(".ttt-analysis"), message="the tic-tac-toe analysis")
        board = self.server_match()["state"]["board"]
        status, direct = api("POST", "/tictactoe/move", {"board": board})
        self.assertEqual(status, 200)
        shown = {
            (int(c.get_attribute("data-row")), int(c.get_attribute("data-col"))): c.get_attribute("data-outcome")
            for c in self.els(".ttt-analysis .cell[data-outcome]")
        }
        self.assertEqual(shown, {(mv["row"], mv["col"]): mv["outcome"] for mv in direct["moves"]})
        self.shot("tictactoe-analysis.png")

        for _ in range(9):
            if self.body_data("status") != "in_progress":
                break
            before = self.ply()
            self.els("#board button.cell:not([disabled])")[0].click()
            self.after_move(before)
        self.assertEqual(self.body_data("status"), "finished")
        result = self.text("status")
        self.assertNotIn("You won", result)
        self.assertTrue("The AI won" in result or "draw" in result, result)
        m = self.server_match()
        self.assertIn(m["result"]["winner"], ("ai", "draw"))
        # The page shows the server's final board and the whole history.
        # (A cell's own text is its mark; the edge cells' coordinates are spans.)
        cells = self.driver.execute_script(
            "return [...document.querySelectorAll('#board .grid-row')].map((row) => [...row.querySelectorAll('.cell')]"
            ".map((c) => [...c.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join('') || '.').join(''))"
        )
        self.assertEqual(cells, m["state"]["board"])
        self.assertTrue(self.el("#history-box").get_attribute("open") is not None)
        self.assertEqual(len(self.els("#history li")), m["ply"])
        self.shot("tictactoe.png")
        self.check_review(m, "tictactoe-review.png")

    def test_connect_four_scores_sit_above_their_columns_and_a_whole_match_plays(self):
        self.start("connect-four", {"cols": 5, "rows": 4, "k": 4}, level=10)
        self.assertEqual(len(self.els("#board .c4-drop")), 5)
        self.assertEqual(len(self.els("#board .c4-cell")), 20)
        before = self.ply()
        self.el('#board .c4-drop[data-column="3"]').click()
        self.after_move(before)
        m = self.server_match()
        self.assertEqual(m["history"][0]["move"], {"column": 3})
        self.assertEqual(m["state"]["board"][-1][2], m["state"]["human_plays"])

        # Each column's score, as /connect-four/move gives it, right above it.
        self.el("#analysis-toggle").click()
        self.wait_for(lambda: len(self.els(".c4-scores-slot .c4-score")) == 5, message="the column scores")
        status, direct = api("POST", "/connect-four/move", {"board": m["state"]["board"], "k": 4, "max_ms": 800})
        self.assertEqual(status, 200, direct)
        shown = {int(e.get_attribute("data-column")): e.get_attribute("data-score") for e in self.els(".c4-scores-slot .c4-score")}
        self.assertEqual(shown, {mv["column"]: "" if mv["score"] is None else str(mv["score"]) for mv in direct["moves"]})
        for score in self.els(".c4-scores-slot .c4-score"):
            column = score.get_attribute("data-column")
            drop = self.el(f'#board .c4-drop[data-column="{column}"]')
            centre = score.rect["x"] + score.rect["width"] / 2
            self.assertTrue(drop.rect["x"] <= centre <= drop.rect["x"] + drop.rect["width"], f"column {column}'s score is above it")
            self.assertLess(score.rect["y"], drop.rect["y"])
        best = self.el(".c4-scores-slot .c4-score.best").get_attribute("data-column")
        self.assertEqual(int(best), direct["move"]["column"])
        self.shot("connect-four-analysis.png")

        for _ in range(20):
            if self.body_data("status") != "in_progress":
                break
            before = self.ply()
            self.els("#board .c4-drop:not([disabled])")[0].click()
            self.after_move(before)
        self.assertEqual(self.body_data("status"), "finished")
        m = self.server_match()
        you = m["state"]["human_plays"]
        shown = []
        for row in self.els("#board .c4 .grid-row"):
            marks = ""
            for cell in row.find_elements(By.CSS_SELECTOR, ".c4-cell"):
                classes = cell.get_attribute("class").split()
                marks += "." if "empty" in classes else you if "yours" in classes else ("O" if you == "X" else "X")
            shown.append(marks)
        self.assertEqual(shown, m["state"]["board"])
        self.assertEqual(len(self.els("#history li")), m["ply"])
        self.assertIn(m["result"]["winner"], ("ai", "draw", "human"))
        self.shot("connect-four.png")

    def test_connect_four_shows_exact_scores_from_the_first_move(self):
        # The standard 7x6 board: the opening book makes every column exact
        # from the empty board on, as the published solutions give them.
        self.start("connect-four", level=10)
        self.el("#analysis-toggle").click()
        self.wait_for(lambda: len(self.els(".c4-scores-slot .c4-score")) == 7 and self.idle(), message="the column scores")
        texts = [e.text for e in self.els(".c4-scores-slot .c4-score")]
        self.assertFalse(any("~" in t for t in texts), texts)
        shown = [int(e.get_attribute("data-score")) for e in self.els(".c4-scores-slot .c4-score")]
        self.assertEqual(shown, [-2, -1, 0, 1, 0, -1, -2])
        # After a move and the AI's answer, still exact, and as the API says.
        before = self.ply()
        self.el('#board .c4-drop[data-column="3"]').click()
        self.after_move(before)
        m = self.server_match()
        self.wait_for(lambda: self.idle() and not any("~" in e.text for e in self.els(".c4-scores-slot .c4-score")), message="exact scores after a move")
        status, direct = api("POST", "/connect-four/move", {"board": m["state"]["board"], "k": 4})
        self.assertEqual(status, 200, direct)
        self.assertTrue(direct["solved"], direct)
        shown = {int(e.get_attribute("data-column")): e.get_attribute("data-score") for e in self.els(".c4-scores-slot .c4-score")}
        self.assertEqual(shown, {mv["column"]: str(mv["score"]) for mv in direct["moves"]})
        self.shot("connect-four-first-moves.png")

    def test_othello_marks_the_legal_squares_scores_them_and_a_whole_match_plays(self):
        self.start("othello", {"size": 4}, level=10)
        self.assertEqual(len(self.els("#board .discs .cell")), 16)
        m = self.server_match()
        legal = sorted(mv["square"] for mv in m["legal_moves"])
        shown = sorted(e.get_attribute("data-square") for e in self.els("#board .discs .cell.legal"))
        self.assertEqual(shown, legal, "the highlighted squares are the match's legal moves")

        # Every legal square's score, as /othello/move gives it, on the square.
        self.el("#analysis-toggle").click()
        self.wait_for(lambda: len(self.els("#board .discs .square-score")) == len(legal), message="the square scores")
        status, direct = api("POST", "/othello/move", {"board": m["state"]["board"], "player": m["state"]["to_move"], "max_ms": 800})
        self.assertEqual(status, 200, direct)
        scored = {e.get_attribute("data-square"): e.get_attribute("data-score") for e in self.els("#board .discs .cell[data-score]")}
        self.assertEqual(scored, {mv["square"]: str(mv["score"]) for mv in direct["moves"]})
        self.shot("othello-analysis.png")

        for _ in range(20):
            if self.body_data("status") != "in_progress":
                break
            before = self.ply()
            self.els("#board .discs .cell.legal")[0].click()
            self.after_move(before)
        self.assertEqual(self.body_data("status"), "finished")
        m = self.server_match()
        shown = []
        for row in self.els("#board .discs .grid-row"):
            marks = ""
            for cell in row.find_elements(By.CSS_SELECTOR, ".cell"):
                classes = cell.get_attribute("class").split()
                marks += "X" if "black" in classes else "O" if "white" in classes else "."
            shown.append(marks)
        self.assertEqual(shown, m["state"]["board"])
        self.assertEqual(len(self.els("#history li")), m["ply"])
        self.assertEqual(m["result"]["scores"]["human"] + m["result"]["scores"]["ai"], 16)
        self.shot("othello.png")

    def test_kalah_counts_the_seeds_scores_the_houses_and_a_whole_match_plays(self):
        self.start("kalah", {"houses": 4, "seeds": 3}, level=10)
        m = self.server_match()
        pits = self.els("#board .mancala .pit")
        self.assertEqual(len(pits), 8)
        shown = sorted(int(e.get_attribute("data-house")) for e in self.els("#board .mancala .pit.legal"))
        self.assertEqual(shown, sorted(mv["house"] for mv in m["legal_moves"]), "the highlighted houses are the legal moves")
        # Every house's exact margin, as /kalah/move gives it, under the house.
        self.el("#analysis-toggle").click()
        self.wait_for(lambda: len(self.els("#board .mancala .square-score")) == len(m["legal_moves"]), message="the house scores")
        status, direct = api("POST", "/kalah/move", {"board": m["state"]["board"], "to_move": m["state"]["to_move"], "max_ms": 800})
        self.assertEqual(status, 200, direct)
        self.assertTrue(direct["solved"], direct)
        side = m["state"]["to_move"]
        scored = {
            int(e.find_element(By.XPATH, "..").get_attribute("data-house")): e.text
            for e in self.els(f"#board .mancala .pit[data-side='{side}'] .square-score")
        }
        self.assertEqual(scored, {mv["house"]: str(mv["score"]) for mv in direct["moves"]})
        self.shot("kalah-analysis.png")
        for _ in range(40):
            if self.body_data("status") != "in_progress":
                break
            before = self.ply()
            self.els("#board .mancala .pit.legal")[0].click()
            self.after_move(before)
        self.assertEqual(self.body_data("status"), "finished")
        m = self.server_match()
        board = m["state"]["board"]
        stores = [e.text for e in self.els("#board .mancala .store")]
        self.assertEqual(stores, [str(board["north_store"]), str(board["south_store"])])
        self.assertEqual(m["result"]["scores"]["human"] + m["result"]["scores"]["ai"], 24)
        self.assertEqual(len(self.els("#history li")), m["ply"])
        self.shot("kalah.png")

    def backgammon_turn(self, m):
        """Plays the person's decision on the board by clicking: the cube
        buttons, or checkers then highlighted points until a whole play is
        sent."""
        st = m["state"]
        before = self.ply()
        if st["awaiting"] == "cube_or_roll":
            # Double once when the cube is the person's to turn, else roll.
            doubled = any(e["move"] and e["move"].get("double") for e in m["history"] if e["actor"] == "human")
            key = "double" if not doubled and {"double": True} in m["legal_moves"] else "roll"
            self.el(f'#board button[data-key="{key}"]').click()
        elif st["awaiting"] == "cube_response":
            self.el('#board button[data-key="take"]').click()
        elif st["awaiting"] == "play":
            if m["legal_moves"] == [{"play": [], "dice": st["dice"]}]:
                self.el('#board button[data-key="no-move"]').click()
            else:
                for _ in range(8):
                    if self.ply() > before:
                        break
                    self.wait_for(lambda: self.els("#board .movable") or self.ply() > before, message="a movable checker")
                    if self.ply() > before:
                        break
                    self.els("#board .movable")[0].click()
                    self.wait_for(lambda: self.els("#board .target"), message="the legal destinations")
                    self.els("#board .target")[0].click()
                    self.wait_for(lambda: self.idle(), message="the step")
        self.after_move(before)

    def test_backgammon_match_plays_by_clicking_checkers_with_the_cube(self):
        self.start("backgammon", level=3)
        m = self.server_match()
        self.assertEqual(int(self.el("#board [data-pips='me']").text.split()[-1]), m["state"]["pips"]["me"])
        shown_dice = sorted(int(e.get_attribute("data-die")) for e in self.els("#board [data-die]"))
        if m["state"]["dice"]:
            self.assertEqual(sorted(set(shown_dice)), sorted(set(m["state"]["dice"])))
        self.shot("backgammon.png")
        for _ in range(300):
            if self.body_data("status") != "in_progress":
                break
            self.backgammon_turn(m)
            m = self.server_match()
            points = [int(e.get_attribute("data-count")) for e in sorted(
                self.els("#board [data-point][data-count]"), key=lambda e: int(e.get_attribute("data-point")))]
            if len(points) == 24:
                self.assertEqual(points, m["state"]["board"]["points"], "the board drawn is the server's")
        self.assertEqual(self.body_data("status"), "finished")
        m = self.server_match()
        self.assertIn(m["result"]["reason"], ["borne_off", "gammon", "backgammon", "double_passed"])
        self.assertTrue(any(e["move"] and e["move"].get("double") for e in m["history"]), "the person doubled")
        self.assertEqual(len(self.els("#history li")), m["ply"])
        self.assertTrue(any("rolled" in e.text and "-" in e.text for e in self.els("#history li")), "rolls read as dice")
        self.shot("backgammon-finished.png")

    def chess_pieces_shown(self):
        return {
            e.get_attribute("data-square"): e.get_attribute("data-piece")
            for e in self.els("#board .squares .sq")
            if e.get_attribute("data-piece")
        }

    def test_chess_moves_by_clicking_and_the_analysis_draws_stockfishs_lines(self):
        self.start("chess", level=1)
        m = self.server_match()
        self.assertEqual(len(self.els("#board .squares .sq")), 64)
        self.assertEqual(self.chess_pieces_shown(), fen_pieces(m["state"]["fen"]))
        # A piece clicked marks exactly the squares its legal moves reach.
        self.el('#board [data-square="g1"]').click()
        targets = sorted(e.get_attribute("data-square") for e in self.els("#board .sq.target"))
        self.assertEqual(targets, sorted(mv["uci"][2:4] for mv in m["legal_moves"] if mv["uci"].startswith("g1")))
        self.assertEqual(len(targets), 2)
        before = self.ply()
        self.el('#board [data-square="f3"]').click()
        self.after_move(before)
        m = self.server_match()
        self.assertEqual(m["state"]["moves"][0], "g1f3")
        self.assertEqual(len(m["state"]["moves"]), 2, "the AI answered")
        self.assertEqual(self.chess_pieces_shown(), fen_pieces(m["state"]["fen"]))
        last = m["state"]["moves"][-1]
        lit = sorted(e.get_attribute("data-square") for e in self.els("#board .sq.last"))
        self.assertEqual(lit, sorted([last[:2], last[2:4]]))

        # Stockfish's best lines as arrows, the best first, as the API says
        # for the same question (answered from its cache the second time).
        self.el("#analysis-toggle").click()
        self.wait_for(lambda: self.els("#board svg.arrows line"), message="the best-move arrows")
        status, direct = api("POST", "/chess/move", {"fen": m["state"]["fen"], "max_ms": 800, "multi_pv": 3})
        self.assertEqual(status, 200, direct)
        arrows = [e.get_attribute("data-uci") for e in self.els("#board svg.arrows line")]
        self.assertEqual(arrows, [pv["moves"][0] for pv in direct["pvs"]])
        self.assertIn(direct["move"]["san"], self.el("#analysis").text)
        self.shot("chess-analysis.png")

    def test_chess_promotion_asks_for_the_piece_and_a_mate_ends_the_match(self):
        # White to move; the pawn on a7 promotes.
        self.start("chess", {"fen": "8/P6k/8/8/8/8/8/K7 w - - 0 1"}, level=1)
        self.el('#board [data-square="a7"]').click()
        self.el('#board [data-square="a8"]').click()
        choices = [e.get_attribute("data-promotion") for e in self.els("#board .promotion button")]
        self.assertEqual(choices, ["q", "r", "b", "n"])
        before = self.ply()
        self.el('#board .promotion button[data-promotion="n"]').click()
        self.after_move(before)
        m = self.server_match()
        self.assertEqual(m["state"]["moves"][0], "a7a8n")
        self.assertEqual(self.chess_pieces_shown(), fen_pieces(m["state"]["fen"]))

        # Qh8 mates: the match ends with the person's win, the mated king shown
        # in check, and the finished match is reviewed.
        self.start("chess", {"fen": "k7/8/1K6/8/8/8/7Q/8 w - - 0 1"}, level=1)
        before = self.ply()
        self.el('#board [data-square="h2"]').click()
        self.el('#board [data-square="h8"]').click()
        self.after_move(before)
        self.assertEqual(self.body_data("status"), "finished")
        m = self.server_match()
        self.assertEqual(m["result"]["winner"], "human")
        self.assertTrue(m["state"]["check"])
        self.assertEqual([e.get_attribute("data-square") for e in self.els("#board .sq.check")], ["a8"])
        self.check_review(m, "chess-review.png")
        self.shot("chess.png")

    # ---- xiangqi and shogi (Fairy-Stockfish) --------------------------------

    def pieces_shown(self, grid):
        return {
            e.get_attribute("data-square"): e.get_attribute("data-piece")
            for e in self.els(f"#board {grid} [data-square]")
            if e.get_attribute("data-piece")
        }

    def marked(self, css):
        return sorted(e.get_attribute("data-square") for e in self.els(f"#board {css}"))

    def test_xiangqi_moves_on_the_points_of_a_board_with_river_and_palaces(self):
        self.start("xiangqi", level=1)
        m = self.server_match()
        self.assertEqual(m["state"]["human_plays"], "red")
        points = [e.get_attribute("data-square") for e in self.els("#board .xq-points .pt")]
        self.assertEqual(len(points), 90)
        # Red (the person) at the bottom: black's corner a10 top left, i1 bottom right.
        self.assertEqual((points[0], points[8], points[-1]), ("a10", "i10", "i1"))
        self.assertEqual(self.pieces_shown(".xq-points"), xiangqi_pieces(m["state"]["fen"]))
        self.assertEqual(self.el('#board [data-square="e1"]').get_attribute("aria-label"), "e1: red general")
        self.assertEqual(self.el('#board [data-square="e1"] .disc').text, "帥")
        self.assertEqual(self.el('#board [data-square="e10"] .disc').text, "將")
        # The drawing: ten ranks; the files, the seven inner ones broken by
        # the river (16 lines); the palaces' four diagonals; the river.
        lines = "#board svg.xq-lines"
        self.assertEqual(len(self.els(f"{lines} line.rank-line")), 10)
        self.assertEqual(len(self.els(f"{lines} line.file-line")), 16)
        self.assertEqual(len(self.els(f"{lines} line.palace")), 4)
        self.assertEqual(len(self.els(f"{lines} rect.river")), 1)
        self.assertIn("楚 河", self.el(f"{lines}").get_attribute("textContent"))
        palace = sorted((e.get_attribute("x1"), e.get_attribute("y1"), e.get_attribute("x2"), e.get_attribute("y2")) for e in self.els(f"{lines} line.palace"))
        self.assertEqual(palace, sorted([("3.5", "0.5", "5.5", "2.5"), ("5.5", "0.5", "3.5", "2.5"), ("3.5", "7.5", "5.5", "9.5"), ("5.5", "7.5", "3.5", "9.5")]))
        # A piece clicked marks exactly the points its legal moves reach.
        self.el('#board [data-square="h3"]').click()
        self.assertEqual(self.marked(".pt.target"), sorted(xiangqi_points(mv["uci"])[1] for mv in m["legal_moves"] if mv["uci"].startswith("h3")))
        self.assertEqual(self.marked(".pt.selected"), ["h3"])
        before = self.ply()
        self.el('#board [data-square="e3"]').click()
        self.after_move(before)
        m = self.server_match()
        self.assertEqual(m["state"]["moves"][0], "h3e3")
        self.assertEqual(len(m["state"]["moves"]), 2, "the AI answered")
        self.assertEqual(self.pieces_shown(".xq-points"), xiangqi_pieces(m["state"]["fen"]))
        self.assertEqual(self.marked(".pt.last"), sorted(xiangqi_points(m["state"]["moves"][-1])))
        self.assertIn("The AI moved its", self.text("status"))
        self.shot("xiangqi.png")

        # The engine's lines as arrows, the best move marked, as the API
        # says for the same question (answered from its cache).
        self.el("#analysis-toggle").click()
        self.eval_bar_and_best_move("xiangqi-match", "desktop")
        self.wait_for(lambda: self.els("#board .xq-board svg.arrows line"), message="the arrows")
        status, direct = api("POST", "/xiangqi/move", {"position": m["options"]["fen"], "moves": m["state"]["moves"], "max_ms": 800, "multi_pv": 3})
        self.assertEqual(status, 200, direct)
        best = direct["move"]["notation"]
        self.assertEqual(self.marked(".best-move"), [xiangqi_points(best)[1]])
        self.assertEqual(self.marked(".best-from"), [xiangqi_points(best)[0]])
        arrows = [e.get_attribute("data-move") for e in self.els("#board svg.arrows line")]
        self.assertEqual(arrows, [pv["moves"][0] for pv in direct["pvs"]])
        # The move as players write it (WXF) beside the coordinates.
        self.assertIn(f"Best: {direct['move']['readable']}, {best}", self.text("analysis"))
        self.shot("xiangqi-analysis.png")

        # Playing black, the person has black at the bottom.
        self.el("#analysis-toggle").click()
        self.start("xiangqi", level=1, ai_first=True)
        m = self.server_match()
        self.assertEqual(m["state"]["human_plays"], "black")
        points = [e.get_attribute("data-square") for e in self.els("#board .xq-points .pt")]
        self.assertEqual((points[0], points[-1]), ("i1", "a10"))
        self.assertEqual(self.pieces_shown(".xq-points"), xiangqi_pieces(m["state"]["fen"]))
        self.assertEqual(len(self.marked(".pt.last")), 2)
        self.shot("xiangqi-black.png")

    def test_shogi_moves_drops_from_the_hand_and_chooses_to_promote(self):
        self.start("shogi", level=1)
        m = self.server_match()
        self.assertEqual(m["state"]["human_plays"], "sente")
        squares = [e.get_attribute("data-square") for e in self.els("#board .shogi-squares .sq")]
        self.assertEqual(len(squares), 81)
        # As in Japanese diagrams: 9a top left, 1a top right, 1i bottom right.
        self.assertEqual((squares[0], squares[8], squares[-1]), ("9a", "1a", "1i"))
        self.assertEqual(self.pieces_shown(".shogi-squares"), sfen_pieces(m["state"]["sfen"]))
        # Gote's pieces (the AI's) point down the board.
        turned = {e.find_element(By.XPATH, "..").get_attribute("data-square") for e in self.els("#board .shogi-squares .koma.turned")}
        self.assertEqual(turned, {sq for sq, p in sfen_pieces(m["state"]["sfen"]).items() if p.startswith("gote")})
        self.assertEqual(self.el('#board [data-square="8h"]').get_attribute("aria-label"), "8h: sente bishop")
        self.assertEqual(self.el('#board [data-square="8h"] .kanji').text, "角")
        self.el('#board [data-square="7g"]').click()
        self.assertEqual(self.marked(".sq.target"), ["7f"])
        before = self.ply()
        self.el('#board [data-square="7f"]').click()
        self.after_move(before)
        m = self.server_match()
        self.assertEqual(m["state"]["moves"][0], "7g7f")
        self.assertEqual(len(m["state"]["moves"]), 2, "the AI answered")
        self.assertEqual(self.pieces_shown(".shogi-squares"), sfen_pieces(m["state"]["sfen"]))
        last = m["state"]["moves"][-1]
        self.assertEqual(self.marked(".sq.last"), sorted([last[:2], last[2:4]]) if "*" not in last else [last[2:]])
        self.shot("shogi.png")
        # The letters toggle shows USI letters instead of kanji.
        self.el("#board .letters-toggle").click()
        self.assertEqual(self.el('#board [data-square="8h"] .latin').text, "B")
        self.assertFalse(self.el('#board [data-square="8h"] .kanji').is_displayed())
        self.el("#board .letters-toggle").click()
        self.assertTrue(self.el('#board [data-square="8h"] .kanji').is_displayed())

        # A pawn in hand: clicked, it offers the squares it may be dropped on.
        self.start("shogi", {"sfen": "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPP1/1B5R1/LNSGKGSNL b P 1"}, level=1)
        m = self.server_match()
        pawn = self.el('#board .hand.mine [data-drop="P"]')
        self.assertEqual(pawn.get_attribute("data-count"), "1")
        self.assertIn("×1", pawn.text)
        self.assertEqual(self.els('#board .hand.theirs [data-drop]'), [])
        pawn.click()
        drops = sorted(mv["usi"][2:] for mv in m["legal_moves"] if mv["usi"].startswith("P*"))
        self.assertEqual(self.marked(".sq.target"), drops)
        self.assertIn("1e", drops)
        self.shot("shogi-drop.png")
        before = self.ply()
        self.el('#board [data-square="1e"]').click()
        self.after_move(before)
        m = self.server_match()
        self.assertEqual(m["state"]["moves"][0], "P*1e")
        self.assertEqual(self.pieces_shown(".shogi-squares"), sfen_pieces(m["state"]["sfen"]))
        self.assertEqual(self.els('#board .hand.mine [data-drop]'), [])

        # The bishop may take on 2b promoting or not: the person chooses.
        self.start("shogi", {"sfen": "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3"}, level=1)
        self.el('#board [data-square="8h"]').click()
        self.el('#board [data-square="2b"]').click()
        choices = [e.get_attribute("data-promotion") for e in self.els("#board .promotion button[data-promotion]")]
        self.assertEqual(choices, ["+", "="])
        self.shot("shogi-promotion.png")
        before = self.ply()
        self.el('#board .promotion button[data-promotion="+"]').click()
        self.after_move(before)
        m = self.server_match()
        self.assertEqual(m["state"]["moves"][0], "8h2b+")
        self.assertEqual(self.pieces_shown(".shogi-squares"), sfen_pieces(m["state"]["sfen"]))
        for side, hand in m["state"]["hands"].items():
            shown = {e.get_attribute("data-drop"): int(e.get_attribute("data-count")) for e in self.els(f'#board .hand[data-side="{side}"] [data-drop]')}
            self.assertEqual(shown, hand)

        # A pawn reaching the last rank must promote: no question asked.
        self.start("shogi", {"sfen": "lnsgkgsn1/1r5bP/ppppppppp/9/9/9/PPPPPPPP1/1B5R1/LNSGKGSNL b - 1"}, level=1)
        before = self.ply()
        self.el('#board [data-square="1b"]').click()
        self.el('#board [data-square="1a"]').click()
        self.assertEqual(self.els("#board .promotion"), [])
        self.after_move(before)
        self.assertEqual(self.server_match()["state"]["moves"][0], "1b1a+")

        # The analysis marks the best move and draws the lines.
        self.el("#analysis-toggle").click()
        self.eval_bar_and_best_move("shogi-match", "desktop")
        self.shot("shogi-analysis.png")

    def test_shogi_impasse_is_declared_with_a_button_where_it_would_not_lose(self):
        # Sente's king in gote's camp with thirteen pieces there: 24 points
        # with three pawns in hand (a draw), 23 with two (not offered).
        camp = "+R+B+P+P+P+P+P+P+P/GGGG5/4K4/9/9/9/9/9/4k4 b"
        self.start("shogi", {"sfen": f"{camp} 2P 1"}, level=1)
        self.assertEqual(self.els("#board .declare-impasse"), [])
        self.start("shogi", {"sfen": f"{camp} 3P 1"}, level=1)
        button = self.el("#board .declare-impasse")
        self.assertIn("24 points", button.text)
        self.assertIn("draw", button.text)
        self.shot("shogi-impasse.png")
        before = self.ply()
        button.click()
        self.after_move(before)
        m = self.server_match()
        self.assertEqual((m["status"], m["result"]["reason"], m["result"]["winner"]), ("finished", "impasse", "draw"))
        self.assertEqual(m["history"][0]["move"], {"declare": "impasse"})
        self.assertEqual(self.els("#board .declare-impasse"), [])

    def test_xiangqi_and_shogi_boards_fit_a_phone(self):
        self.driver.set_window_size(*PHONE)
        self.el("#analysis-toggle").click()
        for game, grid in (("xiangqi", ".xq-points"), ("shogi", ".shogi-squares")):
            with self.subTest(game=game):
                self.start(game, level=1)
                self.driver.execute_script("document.querySelector('.play').scrollIntoView()")
                self.eval_bar_and_best_move(game, "phone")
                overflow = self.driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
                self.assertLessEqual(overflow, 0, f"{game} is wider than the phone's screen")
                box = self.el(f"#board {grid}").rect
                self.assertLessEqual(box["x"] + box["width"], PHONE[0])
                # Big enough to hit with a finger.
                self.assertGreaterEqual(box["width"] / 9, 30)

    def test_pig_reload_resumes_the_match_and_the_policy_picture_marks_the_position(self):
        self.start("pig", {"goal": 100})
        for _ in range(3):
            before = self.ply()
            self.el("#pig-roll").click()
            self.after_move(before)
        match_id = self.el("#match-meta").get_attribute("data-match-id")
        before = self.pig_screen()
        self.driver.refresh()
        self.wait_for(lambda: self.el("#match-meta").get_attribute("data-match-id") == match_id, message="the match resumed")
        after = self.pig_screen()
        self.assertEqual(after, before)
        m = self.server_match()
        self.assertEqual(m["ply"], before["ply"])
        self.assertEqual(str(m["state"]["turn_total"]), before["turn"])
        self.assertEqual(self.el("#game").get_attribute("value"), "pig")

        # The win probability bar agrees with /pig/decision.
        self.wait_for(lambda: self.el("#pig-winbar").get_attribute("data-p"), message="the win probability")
        s = m["state"]
        _, d = api("POST", "/pig/decision", {"my_score": s["scores"]["human"], "opponent_score": s["scores"]["ai"], "turn_total": s["turn_total"]})
        self.assertAlmostEqual(float(self.el("#pig-winbar").get_attribute("data-p")), d["win_probability"], places=5)

        # The policy picture: drawn, many colours, the position marked.
        self.el("#pig-policy summary").click()
        self.wait_for(lambda: self.els("#pig-policy canvas[data-drawn]"), message="the policy heat map")
        canvas = self.el("#pig-policy canvas")
        self.assertEqual(canvas.get_attribute("data-marker"), f"{s['scores']['human']},{s['scores']['ai']}")
        colours = self.driver.execute_script(
            "const c = arguments[0], x = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;"
            "const seen = new Set(); for (let i = 0; i < x.length; i += 4 * 97) seen.add(x[i] + ',' + x[i+1] + ',' + x[i+2]);"
            "return seen.size;",
            canvas,
        )
        self.assertGreater(colours, 10, "the heat map shows the thresholds' range of colours")
        # The sentence under it names the hold threshold /pig/decision gives.
        here = self.el(".policy-here").text
        self.assertIn(f"below {d['hold_at']}" if d["hold_at"] is not None else "never hold", here)

        self.el("#analysis-toggle").click()
        self.wait_for(lambda: self.els(".decision-analysis td[data-action]"), message="the Pig analysis")
        roll = self.el('.decision-analysis td[data-action="roll"]').text
        self.assertEqual(roll, f"{100 * d['roll_win_probability']:.1f}%")
        self.shot("pig.png")

        # The policy stays open across moves, and the marker follows the game.
        before_ply = self.ply()
        self.el("#pig-hold").click()
        self.after_move(before_ply)
        self.wait_for(lambda: self.els("#pig-policy canvas[data-drawn]"), message="the heat map after a move")
        s = self.server_match()["state"]
        if self.body_data("status") == "in_progress":
            self.assertEqual(self.el("#pig-policy canvas").get_attribute("data-marker"), f"{s['scores']['human']},{s['scores']['ai']}")
        self.wait_for(lambda: self.els(".decision-analysis") or self.body_data("status") == "finished", message="the analysis after the hold")
        self.shot("pig-after-hold.png")

    def test_nine_square_turn_places_the_rolled_number_of_marks(self):
        self.start("nine-square")
        m = self.server_match()
        dice = m["state"]["dice"]
        you = m["state"]["human_plays"]
        self.assertIn(f"rolled {dice}", self.text("status"))
        place = self.el("#nine-place")
        self.assertFalse(place.is_enabled(), "placing needs exactly the rolled number of marks")
        empties = self.els("#board button.cell.empty")
        for cell in empties[10 : 10 + dice]:
            cell.click()
        self.assertEqual(len(self.els("#board button.cell.picked")), dice)
        # One pick too many is refused by the page, not sent.
        empties[0].click()
        self.assertEqual(len(self.els("#board button.cell.picked")), dice)
        self.el("#analysis-toggle").click()
        self.wait_for(lambda: self.els(".nine-analysis"), message="the Nine Square analysis")
        self.shot("nine-square-picked.png")
        before = self.ply()
        self.el("#nine-place").click()
        self.after_move(before)
        after = self.server_match()
        board = after["state"]["board"]
        self.assertEqual(sum(row.count(you) for row in board), dice)
        self.assertGreater(sum(row.count("O" if you == "X" else "X") for row in board), 0, "the AI answered")
        self.assertEqual(len(self.els("#board .cell.yours")), dice)
        self.wait_for(lambda: self.els(".nine-analysis"), message="the analysis of the new position")
        self.shot("nine-square.png")

    def test_ishitori_analysis_explains_the_rule_and_a_move_plays(self):
        self.start("ishitori", {"remaining": 21, "take": "1, 2, 3"})
        self.el("#analysis-toggle").click()
        self.wait_for(lambda: self.els(".ishitori-analysis .rule"), message="the Ishitori rule")
        rule = self.el(".ishitori-analysis .rule")
        self.assertEqual(rule.get_attribute("data-period"), "4")
        # Misère {1,2,3}: heaps of 1 mod 4 are lost, so 21 is lost for the mover.
        self.assertIn("{1}", rule.text)
        self.assertEqual(len(self.els(".strip-cell.here")), 1)
        self.shot("ishitori.png")
        before = self.ply()
        self.el('#board button[data-take="3"]').click()
        self.after_move(before)
        left = int(self.el(".heap").get_attribute("data-size"))
        self.assertEqual(left, self.server_match()["state"]["remaining"])
        self.assertLess(left, 18)

    def test_a_long_search_shows_how_far_it_got_while_it_thinks(self):
        # A 7x7 board is far from solved within the analysis's 800 ms: the
        # search streams one line per depth, and the panel shows each as a
        # "Thinking" status until the final answer replaces it.
        self.driver.execute_script(
            "window.__thinking = [];"
            "new MutationObserver(() => {"
            "  for (const p of document.querySelectorAll('#analysis .thinking')) window.__thinking.push(p.textContent);"
            "}).observe(document.body, { childList: true, subtree: true, characterData: true });"
        )
        self.start("tictactoe", options={"rows": 7, "cols": 7}, level=10)
        self.el("#analysis-toggle").click()
        self.wait_for(lambda: self.els(".ttt-analysis"), message="the tic-tac-toe analysis")
        seen = self.driver.execute_script("return window.__thinking")
        self.assertTrue(seen, "no thinking status was shown")
        depths = []
        for text in seen:
            self.assertRegex(text, r"^Thinking: depth \d+, best row [1-7], column [1-7]…$")
            depths.append(int(text.split("depth ")[1].split(",")[0]))
        self.assertEqual(depths, sorted(depths), "depths shown out of order")
        self.assertFalse(self.els("#analysis .thinking"), "the status stayed after the answer")

    def test_number_square_screen(self):
        # Number Square matches may not be served yet: the page must then say
        # so, not freeze. The board is still checked, on a match object of the
        # contract's shape handed to the page in place of the server's 422,
        # with the analysis from the real /number-square/move.
        self.el("#analysis-toggle").click()
        Select(self.el("#game")).select_by_value("number-square")
        self.el("#opt-size").clear()
        self.el("#opt-size").send_keys("4")
        self.el("#start").click()
        self.wait_for(lambda: self.error_text() or self.body_data("game") == "number-square", message="a match or a message")
        if self.error_text():
            self.assertIn("422", self.error_text())
            self.assertIn("number-square", self.error_text())
            self.shot("number-square-422.png")
            self.el("#error-dismiss").click()
            self.driver.execute_script(NUMBER_SQUARE_STAND_IN, contract_number_square_match())
            self.el("#start").click()
            self.wait_for(lambda: self.body_data("game") == "number-square", message="the stand-in match")
        m = self.server_match() if self.saved()["id"] != STAND_IN_ID else contract_number_square_match()
        board = m["state"]["board"]
        n = len(board)

        def takeable(r, c):
            if board[r][c] is None:
                return False
            if r in (0, n - 1) or c in (0, n - 1):
                return True
            return any(board[y][x] is None for y, x in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)))

        shown = {(int(b.get_attribute("data-row")), int(b.get_attribute("data-col"))) for b in self.els("#board button.takeable")}
        self.assertEqual(shown, {(r, c) for r in range(n) for c in range(n) if takeable(r, c)})
        self.wait_for(lambda: self.els(".nsq-analysis"), message="the tile values")
        _, direct = api("POST", "/number-square/move", {"board": board, "my_score": m["state"]["scores"]["human"], "opponent_score": m["state"]["scores"]["ai"], "max_ms": 800})
        values = {(int(c.get_attribute("data-row")), int(c.get_attribute("data-col"))): int(c.get_attribute("data-value")) for c in self.els(".nsq-analysis .cell[data-value]")}
        self.assertTrue(direct["solved"], direct)
        # Each tile shows the final margin, the headline's measure: the
        # points still to come (`value`) plus those already taken.
        already = m["state"]["scores"]["human"] - m["state"]["scores"]["ai"]
        self.assertEqual(values, {(mv["row"], mv["col"]): mv["value"] + already for mv in direct["moves"]})
        best = direct["move"]
        self.assertEqual(values[(best["row"], best["col"])], direct["final_margin"])
        self.assertIn(f"{direct['final_margin']:+d}", self.el(".nsq-analysis").text)
        self.shot("number-square.png")
        if m["id"] != STAND_IN_ID:
            before = self.ply()
            self.els("#board button.takeable")[0].click()
            self.after_move(before)

    def test_a_finished_number_square_match_shows_its_deal_and_its_review(self):
        self.start("number-square", {"size": 3}, level=10)
        for _ in range(9):
            if self.body_data("status") != "in_progress":
                break
            before = self.ply()
            self.els("#board button.takeable")[0].click()
            self.after_move(before)
        self.assertEqual(self.body_data("status"), "finished")
        m = self.server_match()
        # Taken tiles show the values the options kept from the deal.
        for r, row in enumerate(m["state"]["board"]):
            for c, value in enumerate(row):
                if value is None:
                    cell = self.el(f'#board .cell.taken[aria-label^="row {r + 1}, column {c + 1}:"]')
                    self.assertEqual(cell.text, str(m["options"]["board"][r][c]))
        review = self.check_review(m, "number-square-review.png")
        # 3x3 is solved from the first move: every value exact.
        self.assertTrue(review["exact"], review)
        self.assertEqual(self.el("#review .review").get_attribute("data-exact"), "true")

    # ---- the analysis board -------------------------------------------------

    # Every game, with options small enough to answer quickly.
    BOARD_CASES = (
        ("tictactoe", {}),
        ("connect-four", {}),
        ("othello", {"size": 6}),
        ("kalah", {"seeds": 3}),
        ("chess", {}),
        ("pig", {}),
        ("ishitori", {"remaining": 22}),
        ("number-square", {"size": 4}),
        ("nine-square", {}),
        ("xiangqi", {}),
        ("shogi", {}),
    )

    def eval_bar_and_best_move(self, game, size_name, left="You"):
        """Waits for the eval bar and the best move on the board; returns the
        bar's share for its left side (0..1): the person in a match."""
        self.wait_for(lambda: self.els("#eval .evalbar") and self.els("#board .best-move"), message=f"{game}'s eval bar and best move")
        bar = self.el("#eval .evalbar")
        share = float(bar.get_attribute("data-share"))
        self.assertTrue(0 <= share <= 1, share)
        self.assertAlmostEqual(float(bar.get_attribute("aria-valuenow")), 100 * share, delta=0.06)
        # The bar shows the share rounded as JavaScript rounds (half up).
        shown = re.search(rf"{re.escape(left)} ([0-9.]+)%", bar.text)
        self.assertIsNotNone(shown, bar.text)
        self.assertAlmostEqual(float(shown.group(1)), 100 * share, delta=0.051)
        self.assertTrue(bar.is_displayed())
        self.shot(f"board-{game}-{size_name}.png")
        return share

    def test_every_game_shows_an_eval_bar_and_marks_the_best_move(self):
        self.el("#analysis-toggle").click()
        for game, options in self.BOARD_CASES:
            with self.subTest(game=game):
                self.start(game, options, level=5)
                self.eval_bar_and_best_move(game, "desktop")
        # Exact answers read the same in the bar as in the API: 3x3
        # tic-tac-toe is a draw, and the best cell is the one marked.
        self.start("tictactoe", level=5)
        share = self.eval_bar_and_best_move("tictactoe", "desktop")
        _, direct = api("POST", "/tictactoe/move", {"board": ["...", "...", "..."]})
        self.assertEqual(share, direct["evaluation"]["win_chance"])
        self.assertIn("exact: you draw", self.el("#eval .evalbar").text)
        best = self.els("#board .best-move")
        self.assertEqual([b.get_attribute("data-key") for b in best], [f"{direct['move']['row']},{direct['move']['col']}"])
        # 22 stones, taking 1..3, last stone loses: the mover wins, exactly.
        self.start("ishitori", {"remaining": 22}, level=5)
        self.assertEqual(self.eval_bar_and_best_move("ishitori", "desktop"), 1.0)
        self.assertIn("exact: you win", self.el("#eval .evalbar").text)
        _, direct = api("POST", "/ishitori/move", {"remaining": 22})
        self.assertEqual(self.el("#board .best-move").get_attribute("data-take"), str(direct["take"]))

    def test_othello_and_tictactoe_boards_have_coordinates(self):
        self.start("othello", level=5)
        files = [e.text for e in self.els("#board .discs .coord.file")]
        ranks = [e.text for e in self.els("#board .discs .coord.rank")]
        self.assertEqual(files, list("abcdefgh"))
        self.assertEqual(ranks, [str(i) for i in range(1, 9)])
        # The text's "Best: d3" names a square the board labels, and marks.
        self.el("#analysis-toggle").click()
        self.wait_for(lambda: self.els("#board .discs .best-move"), message="the best square")
        best = self.el("#board .discs .best-move").get_attribute("data-square")
        self.assertIn(f"Best: {best}.", self.text("analysis"))
        self.start("tictactoe", {"rows": 4, "cols": 4}, level=5)
        self.assertEqual([e.text for e in self.els("#board .ttt .coord.file")], ["1", "2", "3", "4"])
        self.assertEqual([e.text for e in self.els("#board .ttt .coord.rank")], ["1", "2", "3", "4"])

    def test_an_unsolved_tictactoe_cell_is_not_grey_like_a_draw(self):
        self.el("#analysis-toggle").click()
        self.start("tictactoe", {"rows": 15, "cols": 15}, level=5)
        self.wait_for(lambda: self.els(".ttt-analysis"), message="the analysis")
        unknown = self.els(".ttt-analysis .cell.outcome-unknown")
        self.assertGreater(len(unknown), 0)
        draw_colour = self.driver.execute_script("return getComputedStyle(document.querySelector('.swatch.outcome-draw')).backgroundColor")
        self.assertNotEqual(unknown[0].value_of_css_property("background-color"), draw_colour)
        # Only the search's favourites are labelled, not 225 question marks.
        labelled = [c.text for c in unknown if c.text.strip()]
        self.assertLessEqual(len(labelled), 5)
        self.assertNotIn("?", "".join(c.text for c in unknown))
        self.shot("tictactoe-15x15-analysis.png")

    def start_board(self, game, options=None):
        """Opens the analysis board of `game` (the person plays both sides)."""
        Select(self.el("#game")).select_by_value(game)
        for name, value in (options or {}).items():
            field = self.el(f"#opt-{name}")
            field.clear()
            field.send_keys(str(value))
        self.el("#mode-analysis").click()
        self.el("#start").click()
        self.wait_for(lambda: self.body_data("mode") == "analysis" and self.body_data("game") == game, message=f"the {game} analysis board")

    def moves_shown(self):
        return [li.find_element(By.CSS_SELECTOR, "button.move").text for li in self.els("#moves li")]

    def key(self, key):
        self.el("body").send_keys(key)

    def test_the_analysis_board_plays_both_sides_undoes_redoes_and_walks_by_keys(self):
        self.start_board("connect-four")
        for column in (4, 4, 5, 3):
            before = self.ply()
            self.el(f'#board .c4-drop[data-column="{column}"]').click()
            self.wait_for(lambda: self.ply() == before + 1, message="the move on the board")
        # Both colours were played by the person, and the list is in the
        # solvers' notation: 1-based columns.
        self.assertEqual(self.moves_shown(), ["4", "4", "5", "3"])
        self.assertEqual(len(self.els("#board .c4-cell.yours")), 2)
        self.assertEqual(len(self.els("#board .c4-cell.ai")), 2)
        self.assertEqual(self.el("#position-text").get_attribute("value"), "4453")
        self.assertIn("Yellow (X) to move", self.text("status"))
        self.eval_bar_and_best_move("connect-four-line", "desktop", left="Yellow (X)")
        self.assertIn("Yellow (X)", self.el("#eval .evalbar").text)
        # Arrow keys, Home and End walk the history; the moves ahead stay (redo).
        self.key(Keys.ARROW_LEFT)
        self.key(Keys.ARROW_LEFT)
        self.wait_for(lambda: self.ply() == 2, message="two moves back")
        self.assertEqual(len(self.els("#board .c4-cell.empty")), 42 - 2)
        self.assertEqual(len(self.els("#moves li.future")), 2)
        self.key(Keys.ARROW_RIGHT)
        self.wait_for(lambda: self.ply() == 3, message="one move forward")
        self.key(Keys.HOME)
        self.wait_for(lambda: self.ply() == 0, message="the start")
        self.key(Keys.END)
        self.wait_for(lambda: self.ply() == 4, message="the end")
        # Undo with the button, then a different move replaces the old future.
        self.el("#nav-back").click()
        self.wait_for(lambda: self.ply() == 3, message="undo")
        self.el('#board .c4-drop[data-column="1"]').click()
        self.wait_for(lambda: self.moves_shown() == ["4", "4", "5", "1"], message="the new move")
        # A click on a move in the list goes there.
        self.els("#moves li button.move")[0].click()
        self.wait_for(lambda: self.ply() == 1, message="the first move")
        self.shot("analysis-board-connect-four.png")

    def test_a_set_up_position_and_its_share_link_restore_every_game(self):
        cases = [
            ("connect-four", "4453", "Yellow (X) to move (ply 4)"),
            ("tictactoe", "X../.O./...", "X to move (ply 0)"),
            ("othello", "......../......../..XXX.../...XO.../...XO.../......../......../........ O", "White to move (ply 0)"),
            ("kalah", "0 5 5 5 5 4 | 0 | 4 4 4 4 4 4 | 0 | north", "North to move (ply 0)"),
            ("ishitori", "22", "First player to move (ply 0)"),
            ("number-square", "1 2 3 / 4 x 6 / 7 8 9", "First player to move (ply 0)"),
            ("pig", "40 55 12 second", "Second player to move (ply 0)"),
            ("chess", "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", "White to move (ply 0)"),
            ("nine-square", "X......../.O......./........./........./........./........./........./........./......... X 2", "X to move (ply 0)"),
            ("xiangqi", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1", "Black to move (ply 0)"),
            ("shogi", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPP1/1B5R1/LNSGKGSNL b P 1", "Sente to move (ply 0)"),
        ]
        for game, text, status in cases:
            with self.subTest(game=game):
                self.start_board(game)
                field = self.el("#position-text")
                field.clear()
                field.send_keys(text)
                self.el("#position-load").click()
                self.wait_for(lambda: self.text("status").startswith(status), message=f"the set-up {game} position")
                self.assertEqual(self.error_text(), "")
                self.wait_for(lambda: self.els("#eval .evalbar"), message="the set-up position's evaluation")
                link = self.el("#share-link").get_attribute("href")
                self.assertIn(f"game={game}", link)
                shown = self.el("#position-text").get_attribute("value")
                # The link, opened afresh, restores the same position.
                self.driver.get(URL + "/openapi.yaml")
                self.driver.get(link)
                self.wait_for(lambda: self.body_data("ready") == "true" and self.body_data("mode") == "analysis", message="the shared board")
                self.assertTrue(self.text("status").startswith(status), self.text("status"))
                self.assertEqual(self.el("#position-text").get_attribute("value"), shown)
                self.shot(f"setup-{game}.png")
        # A position that cannot be read is said so, and nothing changes.
        self.start_board("tictactoe")
        self.el("#position-text").clear()
        self.el("#position-text").send_keys("XXQ/...")
        self.el("#position-load").click()
        self.wait_for(lambda: "could not be read" in self.error_text(), message="the set-up error")

    def test_the_move_lists_speak_each_games_notation(self):
        self.start_board("othello")
        for square in ("d3", "c5"):
            before = self.ply()
            self.el(f'#board [data-square="{square}"]').click()
            self.wait_for(lambda: self.ply() == before + 1, message=square)
        self.assertEqual(self.moves_shown(), ["d3", "c5"])
        self.start_board("kalah")
        # House 3 of 4 seeds ends in South's store: South moves again.
        self.el('#board [data-side="south"][data-house="3"]').click()
        self.wait_for(lambda: self.ply() == 1, message="the sowing")
        self.assertEqual(self.moves_shown(), ["S3"])
        self.assertIn("South to move", self.text("status"))
        self.start_board("tictactoe")
        self.el('#board [data-key="1,1"]').click()
        self.wait_for(lambda: self.ply() == 1, message="the centre")
        self.assertEqual(self.moves_shown(), ["r2c2"])

    def test_the_pages_chess_rules_give_the_published_perft_counts(self):
        # The analysis board's own chess move generator (web/chess-rules.js)
        # against the counts published on the Chess Programming Wiki's
        # "Perft Results" page: the start, "Kiwipete", positions 3 and 5.
        cases = [
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", [20, 400, 8902]),
            ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", [48, 2039]),
            ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", [14, 191, 2812]),
            ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", [44, 1486]),
        ]
        got = self.driver.execute_async_script(
            """
            const [cases, done] = arguments;
            import("/playground/chess-rules.js").then(({ parseFen, perft }) =>
              done(cases.map(([fen, counts]) => counts.map((_, i) => perft(parseFen(fen), i + 1)))));
            """,
            cases,
        )
        self.assertEqual(got, [counts for _, counts in cases])

    def test_the_pages_xiangqi_and_shogi_rules_give_the_published_perft_counts(self):
        # The analysis board's own move generators (web/xiangqi-rules.js,
        # web/shogi-rules.js) against the published counts from the start
        # and the Fairy-Stockfish counts of a middle game each (the Rust
        # tests' MIDDLE_GAMES; the shogi one has drops and promotions).
        cases = [
            ("xiangqi", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", [44, 1920, 79666]),
            ("xiangqi", "3akab2/9/4b4/9/2p1c4/9/4N4/4C4/4A4/3AK4 w - - 0 1", [19, 232, 3716]),
            ("shogi", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", [30, 900, 25470]),
            ("shogi", "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1", [207, 28684]),
        ]
        got = self.driver.execute_async_script(
            """
            const [cases, done] = arguments;
            Promise.all([import("/playground/xiangqi-rules.js"), import("/playground/shogi-rules.js")]).then(([xiangqi, shogi]) => {
              const modules = { xiangqi, shogi };
              done(cases.map(([game, text, counts]) => {
                const { default: rules, perft } = modules[game];
                return counts.map((_, i) => perft(rules.parse(text), i + 1));
              }));
            });
            """,
            cases,
        )
        self.assertEqual(got, [counts for _, _, counts in cases])

    def test_the_pages_backgammon_rules_count_the_opening_plays(self):
        # The analysis board's own backgammon move generator
        # (web/backgammon-rules.js) against the known counts of distinct
        # resulting positions from the start: 3-1 has 16 and 3-3 has 73 (as
        # GNU Backgammon lists them), 6-6 11 and 1-1 42 (the server's rules
        # tests). The start looks the same from both seats: the same counts
        # for White and for Red.
        cases = [("3-1", 16), ("3-3", 73), ("6-6", 11), ("1-1", 42)]
        got = self.driver.execute_async_script(
            """
            const [cases, done] = arguments;
            import("/playground/backgammon-rules.js").then(({ default: rules }) => {
              const start = rules.format(rules.start({}));
              const count = (turn) => rules.legal(rules.parse(start.replace("opening", turn))).length;
              done(cases.map(([roll]) => [count(`white ${roll}`), count(`red ${roll}`)]));
            });
            """,
            cases,
        )
        self.assertEqual(got, [[n, n] for _, n in cases])

    def test_xiangqi_and_shogi_on_the_analysis_board(self):
        self.start_board("xiangqi")
        for uci in ("h3e3", "h10g8"):
            before = self.ply()
            origin, target = re.fullmatch(r"([a-i]\d+)([a-i]\d+)", uci).groups()
            self.el(f'#board .xq-points [data-square="{origin}"]').click()
            self.el(f'#board .xq-points [data-square="{target}"]').click()
            self.wait_for(lambda: self.ply() == before + 1, message=uci)
        # WXF: the cannon on red's second file across to the fifth; the
        # horse on black's eighth file forward to the seventh.
        self.assertEqual(self.moves_shown(), ["C2.5", "H8+7"])
        self.assertIn("Red to move (ply 2)", self.text("status"))
        self.assertEqual(
            self.el("#position-text").get_attribute("value"),
            "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2",
        )
        self.assertEqual(self.el('#board [data-square="g8"]').get_attribute("aria-label"), "g8: black horse")
        # The engine is asked about the position on the board: the start
        # and the moves played from it.
        self.eval_bar_and_best_move("xiangqi-line", "desktop", left="Red")
        self.key(Keys.ARROW_LEFT)
        self.wait_for(lambda: self.ply() == 1, message="a move back")
        self.assertIn("Black to move (ply 1)", self.text("status"))

        self.start_board("shogi")
        for usi in ("7g7f", "3c3d"):
            before = self.ply()
            self.el(f'#board .shogi-squares [data-square="{usi[:2]}"]').click()
            self.el(f'#board .shogi-squares [data-square="{usi[2:]}"]').click()
            self.wait_for(lambda: self.ply() == before + 1, message=usi)
        self.assertEqual(self.moves_shown(), ["7g7f", "3c3d"])
        self.assertIn("Sente to move (ply 2)", self.text("status"))
        self.assertEqual(
            self.el("#position-text").get_attribute("value"),
            "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3",
        )
        self.eval_bar_and_best_move("shogi-line", "desktop", left="Sente")
        # The bishop takes its counterpart in the zone: the person chooses
        # to promote, and the bishop taken goes to sente's hand.
        self.el('#board .shogi-squares [data-square="8h"]').click()
        self.el('#board .shogi-squares [data-square="2b"]').click()
        self.el('#board .promotion [data-promotion="+"]').click()
        self.wait_for(lambda: self.ply() == 3, message="8h2b+")
        self.assertEqual(self.moves_shown(), ["7g7f", "3c3d", "8h2b+"])
        self.assertIn("Gote to move (ply 3)", self.text("status"))
        self.assertEqual(self.el('#board .hand[data-side="sente"] [data-drop="B"]').get_attribute("data-count"), "1")
        self.assertEqual(
            self.el("#position-text").get_attribute("value"),
            "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4",
        )
        # Gote (the person too, at the top) takes back and drops from its
        # own hand: the hand of the side to move is the one that drops.
        for usi in ("3a2b", "9g9f"):
            before = self.ply()
            self.el(f'#board .shogi-squares [data-square="{usi[:2]}"]').click()
            self.el(f'#board .shogi-squares [data-square="{usi[2:]}"]').click()
            self.wait_for(lambda: self.ply() == before + 1, message=usi)
        self.assertFalse(self.el('#board .hand[data-side="sente"] [data-drop="B"]').is_enabled(), "not sente's turn")
        self.el('#board .hand[data-side="gote"] [data-drop="B"]').click()
        self.el('#board .shogi-squares [data-square="5e"]').click()
        self.wait_for(lambda: self.ply() == 6, message="B*5e")
        self.assertEqual(self.moves_shown(), ["7g7f", "3c3d", "8h2b+", "3a2b", "9g9f", "B*5e"])
        self.assertIn("Sente to move (ply 6)", self.text("status"))
        self.assertEqual(self.el('#board [data-square="5e"]').get_attribute("aria-label"), "5e: gote bishop")
        self.assertEqual(self.els('#board .hand[data-side="gote"] [data-drop]'), [])

    def test_chess_on_the_analysis_board_plays_both_sides_in_san_and_is_reviewed(self):
        self.start_board("chess")
        for uci in ("e2e4", "e7e5", "g1f3", "b8c6", "f1b5"):
            before = self.ply()
            self.el(f'#board [data-square="{uci[:2]}"]').click()
            self.el(f'#board [data-square="{uci[2:]}"]').click()
            self.wait_for(lambda: self.ply() == before + 1, message=uci)
        self.assertEqual(self.moves_shown(), ["e4", "e5", "Nf3", "Nc6", "Bb5"])
        self.assertIn("Black to move (ply 5)", self.text("status"))
        self.assertEqual(
            self.el("#position-text").get_attribute("value"),
            "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
        )
        self.eval_bar_and_best_move("chess-line", "desktop", left="White")
        # Back two moves and a different reply: the old future is replaced.
        self.key(Keys.ARROW_LEFT)
        self.key(Keys.ARROW_LEFT)
        self.wait_for(lambda: self.ply() == 3, message="two moves back")
        self.el('#board [data-square="g8"]').click()
        self.el('#board [data-square="f6"]').click()
        self.wait_for(lambda: self.moves_shown() == ["e4", "e5", "Nf3", "Nf6"], message="the new reply")
        # The review (Stockfish) judges every move of the line.
        self.el("#review-line").click()
        self.wait_for(lambda: len(self.els("#moves li[data-judgment]")) == 4, message="the judgments", timeout=60)
        self.shot("analysis-board-chess.png")
        # A set-up mate in one: the board finds the mate and the game ends.
        field = self.el("#position-text")
        field.clear()
        field.send_keys("7k/5Q2/6K1/8/8/8/8/8 w - - 0 1")
        self.el("#position-load").click()
        self.wait_for(lambda: self.text("status").startswith("White to move (ply 0)"), message="the set-up position")
        self.el('#board [data-square="f7"]').click()
        self.el('#board [data-square="g7"]').click()
        self.wait_for(lambda: self.ply() == 1, message="the mate")
        self.assertEqual(self.moves_shown(), ["Qg7#"])
        self.assertTrue(self.text("status").startswith("White wins"), self.text("status"))
        # The FEN is the line's start option, so a set-up line is reviewable.
        self.assertIsNone(self.el("#review-line").get_attribute("disabled"))

    def test_nine_square_on_the_analysis_board_rolls_places_and_replays(self):
        self.start_board("nine-square")
        # The first player's die is thrown by the board: the first move.
        self.wait_for(lambda: self.ply() == 1, message="the first roll")
        roll = self.moves_shown()[0]
        self.assertRegex(roll, r"^rolls [1-6]$")
        face = int(roll.split()[1])
        self.assertIn("X to move", self.text("status"))
        for key in [f"{r},{c}" for r in range(3) for c in range(3)][:face]:
            self.el(f'#board .nine-square [data-key="{key}"]').click()
        self.el("#nine-place").click()
        # The placements, then O's roll: two more moves.
        self.wait_for(lambda: self.ply() == 3, message="the placements and the next roll")
        shown = self.moves_shown()
        self.assertEqual(shown[1], " ".join(f"r{r + 1}c{c + 1}" for r, c in [(r, c) for r in range(3) for c in range(3)][:face]))
        self.assertRegex(shown[2], r"^rolls [1-6]$")
        self.assertIn("O to move", self.text("status"))
        self.assertEqual(len(self.els("#board .nine-square .cell.ai")), face)
        self.wait_for(lambda: self.els("#eval .evalbar") and self.els("#board .best-move"), message="Nine Square's evaluation")
        # Back to the start and forward again: the same rolls (a replay).
        self.key(Keys.HOME)
        self.wait_for(lambda: self.ply() == 0, message="the start")
        self.key(Keys.END)
        self.wait_for(lambda: self.ply() == 3, message="the end")
        self.assertEqual(self.moves_shown(), shown)
        # The link restores the line, rolls included.
        link = self.el("#share-link").get_attribute("href")
        self.driver.get(URL + "/openapi.yaml")
        self.driver.get(link)
        self.wait_for(lambda: self.body_data("ready") == "true" and self.body_data("mode") == "analysis", message="the shared board")
        self.assertEqual(self.moves_shown(), shown)
        self.shot("analysis-board-nine-square.png")

    def test_a_nine_square_match_opens_on_the_analysis_board_with_its_rolls(self):
        self.start("nine-square", level=1)
        m = self.server_match()
        face = m["state"]["dice"]
        empty = [f"{r},{c}" for r in range(9) for c in range(9) if m["state"]["board"][r][c] == "."]
        for key in empty[:face]:
            self.el(f'#board .nine-square [data-key="{key}"]').click()
        self.el("#nine-place").click()
        self.after_move(m["ply"])
        self.wait_for(lambda: self.el("#to-analysis").is_displayed(), message="the analyse button")
        self.el("#to-analysis").click()
        self.wait_for(lambda: self.body_data("mode") == "analysis", message="the analysis board")
        m = self.server_match()
        # Every history entry is a move of the line: the rolls, the placements.
        rolls = [f"rolls {e['roll']}" for e in m["history"] if e["actor"] == "dice"]
        self.assertEqual([t for t in self.moves_shown() if t.startswith("rolls")][: len(rolls)], rolls)
        self.assertGreaterEqual(len(self.moves_shown()), m["ply"])
        self.assertEqual(self.error_text(), "")

    def test_pig_on_the_analysis_board_rolls_holds_and_replays_its_rolls(self):
        self.start_board("pig")
        self.el("#pig-roll").click()
        self.wait_for(lambda: self.ply() == 1, message="the roll")
        roll = self.moves_shown()[0]
        self.assertRegex(roll, r"^roll [1-6]$")
        face = int(roll.split()[1])
        if face != 1:
            self.el("#pig-hold").click()
            self.wait_for(lambda: self.ply() == 2, message="the hold")
            self.assertEqual(self.moves_shown()[1], "hold")
            self.assertIn("Second player to move", self.text("status"))
        self.wait_for(lambda: self.els("#eval .evalbar") and self.els("#board .best-move"), message="Pig's evaluation")
        # Back and forth keeps the rolled faces: the line replays exactly.
        shown = self.moves_shown()
        self.key(Keys.HOME)
        self.wait_for(lambda: self.ply() == 0, message="the start")
        self.key(Keys.END)
        self.wait_for(lambda: self.ply() == len(shown), message="the end")
        self.assertEqual(self.moves_shown(), shown)
        self.assertFalse(self.el("#review-line").is_displayed())
        self.shot("analysis-board-pig.png")

    def test_the_review_judges_the_moves_on_the_analysis_board(self):
        self.start_board("tictactoe")
        # The centre, then an edge: O's edge reply loses against best play.
        for key in ("1,1", "0,1", "0,0"):
            before = self.ply()
            self.el(f'#board [data-key="{key}"]').click()
            self.wait_for(lambda: self.ply() == before + 1, message=key)
        self.el("#review-line").click()
        self.wait_for(lambda: len(self.els("#moves li[data-judgment]")) == 3, message="the judgments")
        _, review = api("POST", "/tictactoe/review", {"options": {}, "moves": [{"row": 1, "col": 1}, {"row": 0, "col": 1}, {"row": 0, "col": 0}]})
        marked = {int(li.get_attribute("value")): li.get_attribute("data-judgment") for li in self.els("#moves li[data-judgment]")}
        self.assertEqual(marked, {e["ply"]: e["judgment"] for e in review["moves"]})
        self.assertEqual(marked[2], "blunder")
        self.assertIn("blunder", self.el('#moves li[value="2"]').text)
        self.shot("analysis-board-review.png")

    def test_the_board_flips_and_the_link_keeps_it(self):
        self.start_board("othello")
        self.el("#flip").click()
        self.assertIn("flipped", self.el("#board").get_attribute("class"))
        self.assertNotEqual(self.el("#board .discs").value_of_css_property("transform"), "none")
        self.assertIn("flip=1", self.el("#share-link").get_attribute("href"))
        self.shot("othello-flipped.png")
        self.el("#flip").click()
        self.assertEqual(self.el("#board .discs").value_of_css_property("transform"), "none")
        # Shogi's hands go with their sides: flipped, the bottom player's
        # hand moves from below (or right of) the board to above (or left).
        self.start_board("shogi")
        mine, board = self.el("#board .shogi .hand.mine"), self.el("#board .shogi .shogi-frame")
        self.assertTrue(mine.rect["y"] > board.rect["y"] or mine.rect["x"] > board.rect["x"], "the bottom hand below or right")
        self.el("#flip").click()
        self.assertTrue(mine.rect["y"] < board.rect["y"] or mine.rect["x"] < board.rect["x"], "flipped: above or left")
        self.shot("shogi-flipped.png")
        self.el("#flip").click()

    def test_a_match_opens_on_the_analysis_board(self):
        self.start("tictactoe", level=5)
        self.el('#board [data-key="1,1"]').click()
        self.after_move(0)
        self.wait_for(lambda: self.el("#to-analysis").is_displayed(), message="the analyse button")
        self.el("#to-analysis").click()
        self.wait_for(lambda: self.body_data("mode") == "analysis", message="the analysis board")
        m = self.server_match()
        self.assertEqual(len(self.moves_shown()), m["ply"])
        self.assertEqual(self.moves_shown()[0], "r2c2")

    def test_a_chess_match_link_starts_a_match_from_the_position_shown(self):
        self.start("chess", level=1)
        self.el('#board [data-square="e2"]').click()
        self.el('#board [data-square="e4"]').click()
        self.after_move(0)
        fen = self.server_match()["state"]["fen"]
        link = self.el("#match-share").get_attribute("href")
        self.assertIn("mode=match", link)
        before = self.saved()["id"]
        self.driver.get(URL + "/openapi.yaml")
        self.driver.get(link)
        self.wait_for(lambda: self.saved() and self.saved()["id"] != before and self.body_data("game") == "chess", message="the shared chess match")
        m = self.server_match()
        self.assertEqual(m["options"]["fen"], fen)
        self.assertEqual(m["state"]["fen"], fen)
        self.shot("chess-shared-position.png")

    def test_a_pig_match_opens_on_the_analysis_board_with_its_rolls(self):
        self.start("pig", {"goal": 20}, level=3)
        for _ in range(4):
            if self.body_data("status") != "in_progress":
                break
            before = self.ply()
            self.el("#pig-roll").click()
            self.after_move(before)
        m = self.server_match()
        self.wait_for(lambda: self.el("#to-analysis").is_displayed(), message="the analyse button")
        self.el("#to-analysis").click()
        self.wait_for(lambda: self.body_data("mode") == "analysis", message="the analysis board")
        # Every decision is on the list, each roll with the face the server rolled.
        decisions = [e for e in m["history"] if e["actor"] != "dice"]
        self.assertEqual(len(self.moves_shown()), len(decisions))
        faces = [e["roll"] for e in m["history"] if e["actor"] == "dice"]
        rolled = [int(t.split()[1]) for t in self.moves_shown() if t.startswith("roll")]
        self.assertEqual(rolled, faces)
        # The replayed scores are the server's (the person moved first; the
        # board shows the mover's score as "You").
        scores = {"First": m["state"]["scores"]["human"], "Second": m["state"]["scores"]["ai"]}
        mover = self.text("status").split()[0]
        other = "Second" if mover == "First" else "First"
        self.assertEqual(self.el('[data-score="human"]').text, str(scores[mover]))
        self.assertEqual(self.el('[data-score="ai"]').text, str(scores[other]))

    def test_the_default_ishitori_lets_the_ai_start_so_the_person_is_not_lost(self):
        Select(self.el("#game")).select_by_value("ishitori")
        self.wait_for(lambda: self.el('input[name="starts"][value="ai"]').is_selected(), message="the AI to start")
        self.assertIn("first player loses", self.text("starts-note"))
        self.el("#analysis-toggle").click()
        self.el("#start").click()
        self.wait_for(lambda: self.body_data("game") == "ishitori" and self.els("#eval .evalbar"), message="the match and its evaluation")
        self.assertEqual(float(self.el("#eval .evalbar").get_attribute("data-share")), 1.0)
        self.assertIn("you win", self.el("#eval .evalbar").text)

    def test_the_defaults_are_a_middle_level(self):
        self.assertEqual(self.el("#level").get_attribute("value"), "5")
        self.assertEqual(self.el("#level-out").text, "5")

    # ---- errors and small screens ----------------------------------------

    def test_api_errors_are_shown_not_swallowed(self):
        # 422: a goal the server refuses; its detail is on the page.
        self.start("pig", {"goal": 1000}, expect_error=True)
        self.assertIn("422", self.error_text())
        self.assertIn("goal", self.error_text())
        self.el("#error-dismiss").click()
        self.assertEqual(self.error_text(), "")

        # 409: the match moved on elsewhere; the page says so and catches up.
        self.start("ishitori", {"remaining": 30})
        s = self.saved()
        status, moved = api("POST", f"/matches/{s['id']}/moves", {"ply": 0, "move": {"take": 1}}, token=s["token"])
        self.assertEqual(status, 200, moved)
        self.el('#board button[data-take="2"]').click()
        self.wait_for(lambda: "409" in self.error_text(), message="the 409 message")
        self.wait_for(lambda: self.ply() == moved["ply"], message="the page reloading the match")
        self.assertEqual(int(self.el(".heap").get_attribute("data-size")), moved["state"]["remaining"])
        self.shot("error-409.png")

    def test_a_vanished_server_is_reported(self):
        port = free_port()
        data = tempfile.mkdtemp()
        server = subprocess.Popen(
            [BIN, "serve", "--bind", f"127.0.0.1:{port}", "--data-dir", data],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            base = f"http://127.0.0.1:{port}"
            for _ in range(120):
                try:
                    if api("GET", "/readyz", base=base)[0] == 200:
                        break
                except OSError:
                    pass
                time.sleep(0.25)
            self.driver.get(base + "/")
            self.wait_for(lambda: self.body_data("ready") == "true")
            self.start("tictactoe")
            server.terminate()
            server.wait(timeout=30)
            self.el('#board button[data-key="0,0"]').click()
            self.wait_for(lambda: "did not answer" in self.error_text(), message="the server-gone message")
            self.assertTrue(self.el("#error-retry").is_displayed())
            self.assertTrue(self.idle(), "the page is usable again")
            self.shot("error-server-gone.png")
        finally:
            if server.poll() is None:
                server.kill()
            shutil.rmtree(data, ignore_errors=True)
        # Its console has the failed fetch; that one is expected.
        self.driver.get_log("browser")

    def test_phone_sized_screen_needs_no_sideways_scrolling(self):
        self.driver.set_window_size(*PHONE)
        # Every game of the catalog that can be played here.
        status, catalog = api("GET", "/games")
        self.assertEqual(status, 200)
        games = [g["id"] for g in catalog["games"] if g["endpoints"]["matches"] and g.get("available", True)]
        self.assertGreater(len(games), 0)
        for game in games:
            name = f"{game}-phone.png"
            self.start(game)
            overflow = self.driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
            self.assertLessEqual(overflow, 0, f"{game} is wider than the phone's screen")
            self.driver.execute_script("document.querySelector('.play').scrollIntoView()")
            self.shot(name)

    def test_phone_sized_analysis_board_plays_walks_and_fits(self):
        self.driver.set_window_size(*PHONE)
        self.start_board("othello")
        for square in ("d3", "c5"):
            before = self.ply()
            self.el(f'#board [data-square="{square}"]').click()
            self.wait_for(lambda: self.ply() == before + 1, message=square)
        self.el("#nav-back").click()
        self.wait_for(lambda: self.ply() == 1, message="undo")
        self.eval_bar_and_best_move("othello-line", "phone", left="Black")
        overflow = self.driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
        self.assertLessEqual(overflow, 0, "the analysis board is wider than the phone's screen")
        self.driver.execute_script("document.getElementById('line-tools').scrollIntoView()")
        self.shot("analysis-board-othello-phone-tools.png")

    def test_phone_sized_analysis_board_shows_the_eval_bar_and_best_move(self):
        self.driver.set_window_size(*PHONE)
        self.el("#analysis-toggle").click()
        for game, options in self.BOARD_CASES:
            with self.subTest(game=game):
                self.start(game, options, level=5)
                self.driver.execute_script("document.querySelector('.play').scrollIntoView()")
                self.eval_bar_and_best_move(game, "phone")
                overflow = self.driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
                self.assertLessEqual(overflow, 0, f"{game}'s analysis board is wider than the phone's screen")


if __name__ == "__main__":
    unittest.main(verbosity=2)
