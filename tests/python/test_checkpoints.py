"""scripts/train --snapshots: the training timelapse's frames (scripts/nmt/checkpoints.py)."""
import os

import torch

from nmt import checkpoints
from nmt import train as train_mod
from test_search_bleu_train import synthetic_pairs


def test_snapshot_steps_start_untrained_and_spread_logarithmically():
    steps = checkpoints.snapshot_steps(5000)
    assert steps[:4] == [0, 1, 2, 3] and steps == sorted(set(steps)) and steps[-1] <= 5000
    assert 45 <= len(steps) <= 60  # the timelapse wants 40 or more frames
    gaps = [b / a for a, b in zip(steps[10:], steps[11:])]
    assert all(1.05 < g < 1.3 for g in gaps), gaps  # even on a log scale once past the first ten


TINY = '{"emb": 8, "enc_hidden": 8, "dec_hidden": 8, "attn": 8, "src_vocab": 40, "tgt_vocab": 40}'


def tiny_run(tmp_path, steps, *flags):
    """A few steps of a tiny model on synthetic pairs -> (out folder, main's result)."""
    tsv = tmp_path / "pairs.tsv"
    tsv.write_text("".join(f"{e}\t{f}\tCC-BY\n" for e, f in synthetic_pairs(200)),
                   encoding="utf-8")
    out = tmp_path / "run"
    return out, train_mod.main(["--data", str(tsv), "--out", str(out), "--steps", str(steps),
                                "--batch", "16", "--threads", "1", "--config", TINY, "--quiet",
                                *flags])


def test_a_run_with_snapshots_keeps_step_0_the_schedule_and_the_last_step(tmp_path):
    out, (model, meta, state) = tiny_run(tmp_path, 13, "--snapshots")
    names = sorted(os.listdir(out / "snapshots"))
    want = sorted(set(checkpoints.snapshot_steps(13)) | {13})
    assert names == [f"step-{s:07d}.pt" for s in want]
    first = torch.load(out / "snapshots" / names[0])
    last = torch.load(out / "snapshots" / names[-1])
    assert first["state"]["step"] == 0 and last["state"]["step"] == state["step"] == 13
    assert first["cfg"] == meta["cfg"] and "opt" not in last
    # the last frame is the trained model; the first is not
    for k, v in model.state_dict().items():
        assert torch.equal(last["model"][k], v)
    assert any(not torch.equal(first["model"][k], v) for k, v in model.state_dict().items())


def test_without_snapshots_no_frames_are_written(tmp_path):
    out, _ = tiny_run(tmp_path, 3)
    assert not os.path.exists(out / "snapshots")
