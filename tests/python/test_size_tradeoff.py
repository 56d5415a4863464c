"""scripts/size-tradeoff's 4-bit form: codes in range, values exactly codes times f16 scales,
each group's scale no worse than amax/7, and the packed size two codes a byte plus an f16 a
group."""
import numpy as np

from scripts.nmt import size_tradeoff as st


def test_four_bit_values_are_codes_times_group_scales():
    rng = np.random.default_rng(3)
    w = rng.normal(size=(12, 64)).astype(np.float32)
    w[0] = 0.0  # an all-zero row keeps zeros
    values, codes, scales = st.quantize4(w, 32)
    assert codes.min() >= -8 and codes.max() <= 7
    assert scales.shape == (12 * 2,)
    assert scales.dtype == np.float16
    rebuilt = (codes.reshape(12, 2, 32) * scales.astype(np.float32).reshape(12, 2, 1)).reshape(12, 64)
    np.testing.assert_array_equal(values, rebuilt.astype(np.float32))
    assert not values[0].any()
    g = w.reshape(12, 2, 32)
    plain = np.abs(g).max(axis=2, keepdims=True) / 7
    plain_err = ((np.clip(np.rint(g / np.where(plain > 0, plain, 1)), -7, 7) * plain - g) ** 2)
    err = (values.reshape(12, 2, 32) - g) ** 2
    # plain's f32 scale against our f16 ones: within f16's rounding of a scale (2^-11)
    assert (err.sum(axis=2) <= plain_err.sum(axis=2) * (1 + 2e-3) + 1e-9).all()
    assert len(st.packed4(codes, scales)) == 12 * 64 // 2 + 2 * 24


def test_smaller_vocab_keeps_the_first_rows_and_says_so():
    t = {"src_emb": np.arange(20, dtype=np.int8).reshape(10, 2), "src_emb.scale": np.ones(10),
         "tgt_emb": np.zeros((12, 2), np.int8), "tgt_emb.scale": np.ones(12),
         "dec.out.b": np.arange(12, dtype=np.float32)}
    md = {"config": '{"src_vocab": 10, "tgt_vocab": 12}',
          "src_vocab": str([f"s{i}" for i in range(10)]).replace("'", '"'),
          "tgt_vocab": str([f"t{i}" for i in range(12)]).replace("'", '"')}
    out, m = st.smaller_vocab(t, md, 6, 8)
    assert out["src_emb"].shape == (6, 2) and out["dec.out.b"].tolist() == list(range(8))
    assert '"src_vocab": 6' in m["config"] and m["tgt_vocab"].count('"t') == 8
