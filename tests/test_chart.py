"""The rating chart: a phone-legible PNG for no point, one point and many, in any language."""

import datetime as dt
import gettext
import io
import itertools
import math
import re

import pytest
from PIL import Image
from test_render import layout_problems

from render import ChartLabels, TextBox, rating_chart
from render.chart import HEIGHT, LINE, WIDTH, rating_ticks
from render.common import translated

DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
DAY = 86400.0
T0 = dt.datetime(2024, 3, 1, 12, tzinfo=dt.UTC).timestamp()


def chart(points, title="Alice — Progressive Mancala", tr=None):
    boxes: list[TextBox] = []
    png = rating_chart(points, title=title, tr=tr, layout=boxes)
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.mode == "P" and image.size == (WIDTH, HEIGHT)
    assert (WIDTH, HEIGHT) == (720, 360)
    assert not layout_problems(png, boxes), layout_problems(png, boxes)
    return image.convert("RGB"), [b.text for b in boxes]


def dates(texts):
    return [t for t in texts if DATE.match(t)]


def test_no_points_is_an_empty_chart_that_says_so():
    image, texts = chart([])
    assert texts == ["Alice — Progressive Mancala", "No rated games yet"]
    assert LINE not in {c for _, c in image.getcolors(1 << 16)}


def test_one_point_is_a_dot_with_its_rating_and_date():
    image, texts = chart([(T0, 1500.0)])
    assert "1500" in texts
    assert dates(texts) == ["2024-03-01"]
    assert LINE in {c for _, c in image.getcolors(1 << 16)}
    assert texts[-1] == "1500" and len([t for t in texts if t.isdigit()]) >= 4  # ticks too


def test_many_points_have_round_ticks_two_to_four_dates_and_the_last_value():
    ratings = [1500, 1523, 1511, 1546, 1580, 1561, 1602, 1594, 1620, 1611.6]
    points = [(T0 + i * 6 * DAY, r) for i, r in enumerate(ratings)]
    _, texts = chart(list(reversed(points)))  # any order: sorted by time
    shown = dates(texts)
    assert 2 <= len(shown) <= 4
    assert shown[0] == "2024-03-01" and shown[-1] == "2024-04-24"
    assert texts[-1] == "1612"  # the last rating, beside the last point
    ticks = [int(t) for t in texts[1:] if t.isdigit()][:-1]
    assert len(ticks) >= 3 and ticks[0] <= 1500 and ticks[-1] >= 1620
    assert len({b - a for a, b in zip(ticks, ticks[1:], strict=False)}) == 1


def test_hundreds_of_points_and_one_day_still_draw():
    _, texts = chart([(T0 + i * 1800, 1500 + (i % 7) * 3) for i in range(20)])
    assert dates(texts) == ["2024-03-01"]  # one day: one date
    _, texts = chart([(T0 + i * DAY / 3, 1400 + i) for i in range(600)])
    assert 2 <= len(dates(texts)) <= 4


@pytest.mark.parametrize("low, high", [(1500, 1500), (1450, 1606), (0.2, 0.4), (-30, 2900),
                                       (1499.5, 1500.5)])
def test_rating_ticks_are_round_and_cover_the_range(low, high):
    ticks = rating_ticks(low, high)
    assert 3 <= len(ticks) <= 5
    assert ticks[0] <= low and ticks[-1] >= high
    step = ticks[1] - ticks[0]
    assert all(abs((b - a) - step) < 1e-9 for a, b in zip(ticks, ticks[1:], strict=False))
    mantissa = step / 10 ** math.floor(math.log10(step))
    assert min(abs(mantissa - m) for m in (1, 2, 5)) < 1e-9
    assert ticks[-1] - ticks[0] >= 20


def test_the_words_come_through_the_translation():
    class Shout(gettext.NullTranslations):
        def gettext(self, message):
            return message.upper()

    assert translated(ChartLabels, Shout()).empty == "NO RATED GAMES YET"
    _, texts = chart([], tr=Shout())
    assert "NO RATED GAMES YET" in texts


def test_japanese_chart_uses_the_catalog_and_the_cjk_font(cjk_font):
    from bot.words.i18n import translations

    japanese = translations("ja")
    empty = japanese.gettext(ChartLabels.empty)
    assert empty != ChartLabels.empty and re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", empty)
    boxes: list[TextBox] = []
    png = rating_chart([], title="アリス — 陣取り", tr=japanese, layout=boxes)
    assert [b.text for b in boxes] == ["アリス — 陣取り", empty]
    assert all(b.box[2] - b.box[0] > 100 for b in boxes)  # drawn glyphs, not empty boxes
    assert not layout_problems(png, boxes)
    _, texts = chart([(T0, 1500.0), (T0 + 9 * DAY, 1530.0)], title="アリスのレーティング",
                     tr=japanese)
    assert texts[0] == "アリスのレーティング"


# a display name as long as Discord allows (32 characters)
LONG_NAME = "長谷川・ボブ・ジョンソン・ザ・サード・ロングネーム・二世です本当に"[:32]


@pytest.mark.parametrize("game_id", ["progressive-mancala", "pastoral-square", "ghostone",
                                     "ico", "consequence"])
def test_the_profile_charts_title_names_the_game_in_japanese_and_is_whole(game_id, cjk_font):
    """/profile's chart title carried the English game name in Japanese and was cut with an
    ellipsis; the game's name now comes through the catalog (as on every other screen) and
    a title too long for a line is set on two, whole, at the title's size."""
    from bot.cogs.stats import chart_title
    from bot.offered import PLAYABLE
    from bot.words.i18n import Texts, translations

    texts = Texts("ja")
    title = chart_title(game_id, LONG_NAME, texts)
    japanese = texts(PLAYABLE[game_id].name)
    assert japanese in title and LONG_NAME in title
    if game_id in ("progressive-mancala", "pastoral-square", "consequence"):
        assert japanese != PLAYABLE[game_id].name  # (Ghostone and ICO are so in Japanese)
    boxes: list[TextBox] = []
    png = rating_chart([(T0, 1500.0), (T0 + DAY, 1523.0)], title=title,
                       tr=translations("ja"), layout=boxes, names=[LONG_NAME])
    assert not layout_problems(png, boxes), layout_problems(png, boxes)
    lines = list(itertools.takewhile(lambda b: b.height == boxes[0].height, boxes))  # drawn first
    assert len(lines) > 1  # too long for one line: set on more, not cut
    assert "".join(b.text for b in lines).replace(" ", "") == title.replace(" ", ""), \
        [b.text for b in lines]
    assert not any("…" in b.text for b in boxes)
    assert all(b.height * 360 / WIDTH >= 9 for b in boxes)
    image = Image.open(io.BytesIO(png))
    assert image.width == WIDTH and image.height <= HEIGHT + 2 * 60
