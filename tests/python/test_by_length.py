"""scripts/eval --by-length outputs: the model card's table, the figure and the page's files."""
import json
import re

from nmt import by_length, joined


def fake_results():
    bs = by_length.buckets()
    return [{"model": m, "scoring": s, "bleu": {b: v - k * i for i, b in enumerate(bs)},
             "sentences": {b: 100 for b in bs}}
            for m, s, v, k in (("en-fr-noattn", "none", 20.0, 3), ("en-fr", "additive", 45.0, 1),
                               ("en-fr-dot", "scaled_dot", 48.0, 1))]


def test_table_has_a_row_per_model_and_the_counts():
    table = by_length.markdown_table(fake_results()).splitlines()
    assert table[0].startswith("| model | 1-10 words |") and len(table) == 2 + 3 + 1
    assert table[2] == "| en-fr-noattn (none) | 20.00 | 17.00 | 14.00 | 11.00 | 8.00 | 5.00 |"
    assert table[-1] == "| inputs per bucket | 100 | 100 | 100 | 100 | 100 | 100 |"


def test_figure_draws_each_model_at_its_numbers():
    results = fake_results()
    svg = by_length.figure_svg(results)
    lines = re.findall(r'<polyline points="([^"]+)"', svg)
    assert len(lines) == 3
    for pts in lines:
        assert len(pts.split()) == len(by_length.buckets())
    # higher BLEU is drawn higher (smaller y) within one line, and the text alternative lists
    # every number
    ys = [float(p.split(",")[1]) for p in lines[0].split()]
    assert ys == sorted(ys)
    assert "no attention (RNNencdec): 1-10 words 20.0" in svg and "51-60 words 43.0" in svg


def test_written_files(tmp_path):
    items = [(b, f"en {b} {k}", f"fr {b} {k}") for b in by_length.buckets() for k in range(5)]
    svg, js, sample = tmp_path / "f.svg", tmp_path / "d" / "f.json", tmp_path / "s.json"
    by_length.write(fake_results(), "scripts/eval --by-length", str(svg), str(js), str(sample),
                    items, 2)
    doc = json.loads(js.read_text())
    assert doc["buckets"] == [f"{lo}-{hi}" for lo, hi in joined.BUCKETS]
    assert [m["model"] for m in doc["models"]] == ["en-fr-noattn", "en-fr", "en-fr-dot"]
    s = json.loads(sample.read_text())
    assert "Tatoeba" in s["attribution"] and "CC-BY 2.0 FR" in s["attribution"]
    assert [x["en"] for x in s["items"][:3]] == ["en 1-10 0", "en 1-10 1", "en 11-20 0"]
    assert len(s["items"]) == 12 and svg.read_text().startswith("<svg")
