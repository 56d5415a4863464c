#!/usr/bin/env bash
# The two shipped engines hold what their names say (run after scripts/build --wasm):
#   web/dist/bahdanau-simd.wasm    every *__wasmsimd kernel contains f32x4 instructions, and the
#                                  int8 products (bl_qs8_*) the integer path they are built on:
#                                  i32x4.dot_i16x8_s, v128.load8x8_s (i16x8.load8x8_s) and i32x4.add;
#   web/dist/bahdanau-relaxed.wasm the relaxed int8 loop: its 8 dot-adds per 16 columns of 4 rows
#                                  are i32x4.relaxed_dot_i8x16_i7x16_add_s (wabt 1.0.32 calls
#                                  it i32x4.dot_i8x16_i7x16_add_s), and the wasm-simd engine
#                                  links the relaxed C++ side (bl_qs8_gemv__wasmrelaxed);
#   web/dist/bahdanau-relaxed-gemm.wasm  the fused training product: its 17 multiply-adds
#                                  (4x8 tile 8, 4x4 4, 1x16 4, 1x4 1) are f32x4.relaxed_madd
#                                  (wabt 1.0.32: f32x4.relaxed_fma) and nothing is a plain
#                                  f32x4.mul, and the engine links bl_f32_train_gemm_fused__wasmrelaxed;
#   web/dist/bahdanau-scalar.wasm  no SIMD instruction anywhere (no v128, f32x4, i32x4, ...),
#                                  so it runs on engines without wasm SIMD.
# Function names come from the link's --emit-symbol-map (the .wasm itself carries none).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
command -v wasm-objdump >/dev/null || { echo "check_simd: wasm-objdump missing (scripts/setup wasm)" >&2; exit 1; }
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# Prints "name count" for every function whose disassembly matches the regex $2.
simd_counts() {  # simd_counts WASM REGEX SYMBOLS
  wasm-objdump -d "$1" | awk -v re="$2" -v syms="$3" '
    BEGIN { while ((getline line < syms) > 0) { i = index(line, ":"); name[substr(line, 1, i - 1)] = substr(line, i + 1) } }
    /^[0-9a-f]+ func\[[0-9]+\]/ { match($0, /func\[[0-9]+\]/); f = substr($0, RSTART + 5, RLENGTH - 6); next }
    $0 ~ re { n[f]++ }
    END { for (f in n) { s = (f in name) ? name[f] : "func[" f "]"; sub(/\\28.*/, "", s); print s, n[f] } }'
}

for v in simd scalar; do
  wasm="web/dist/bahdanau-$v.wasm"
  built="build/wasm-$v/src/wasm/bahdanau-$v.wasm"
  syms="build/wasm-$v/src/wasm/bahdanau-$v.js.symbols"
  for f in "$wasm" "$built" "$syms"; do [ -f "$f" ] || { echo "check_simd: $f missing (scripts/build --wasm)" >&2; exit 1; }; done
  cmp -s "$wasm" "$built" || bad "$wasm differs from $built (run scripts/build --wasm)"
done

echo "== bahdanau-simd.wasm: f32x4 instructions per SIMD kernel"
counts=$(simd_counts web/dist/bahdanau-simd.wasm 'f32x4\.' build/wasm-simd/src/wasm/bahdanau-simd.js.symbols)
kernels=$(grep -o '^[0-9]*:bl_[a-z0-9_]*__wasmsimd' build/wasm-simd/src/wasm/bahdanau-simd.js.symbols | cut -d: -f2 | sort)
[ -n "$kernels" ] || bad "no *__wasmsimd kernel in the SIMD build's symbol map"
for k in $kernels; do
  n=$(awk -v k="$k" '$1 == k { print $2 }' <<<"$counts")
  printf '  %-34s %s\n' "$k" "${n:-0}"
  [ "${n:-0}" -gt 0 ] || bad "$k has no f32x4 instruction"
done

echo "== bahdanau-simd.wasm: the int8 products' integer instructions (qs8-wasmsimd.h)"
for re in 'i32x4\.dot_i16x8_s' 'v128\.load8x8_s' 'i32x4\.add'; do
  counts=$(simd_counts web/dist/bahdanau-simd.wasm "$re" build/wasm-simd/src/wasm/bahdanau-simd.js.symbols)
  for k in bl_qs8_gemv__wasmsimd bl_qs8_gemm__wasmsimd; do
    n=$(awk -v k="$k" '$1 == k { print $2 }' <<<"$counts")
    printf '  %-34s %-34s %s\n' "$k" "$re" "${n:-0}"
    [ "${n:-0}" -gt 0 ] || bad "$k has no $re instruction (the int8 path fell back to something else)"
  done
done

echo "== bahdanau-relaxed.wasm: the relaxed dot-adds (qs8-wasmrelaxed.wat)"
[ -f web/dist/bahdanau-relaxed.wasm ] || bad "web/dist/bahdanau-relaxed.wasm missing (scripts/build --wasm)"
cmp -s web/dist/bahdanau-relaxed.wasm build/wasm-simd/src/wasm/bahdanau-relaxed.wasm ||
  bad "web/dist/bahdanau-relaxed.wasm differs from the build's (run scripts/build --wasm)"
n=$(wasm-objdump -d web/dist/bahdanau-relaxed.wasm | grep -cE 'i32x4\.(relaxed_)?dot_i8x16_i7x16_add_s' || true)
echo "  dot-adds: $n"
[ "$n" -eq 8 ] || bad "bahdanau-relaxed.wasm has $n relaxed dot-adds, expected 8"
grep -q ':bl_qs8_gemv__wasmrelaxed' build/wasm-simd/src/wasm/bahdanau-simd.js.symbols ||
  bad "the SIMD engine does not link bl_qs8_gemv__wasmrelaxed"

echo "== bahdanau-relaxed-gemm.wasm: the fused multiply-adds (train-gemm-wasmrelaxed.wat)"
[ -f web/dist/bahdanau-relaxed-gemm.wasm ] || bad "web/dist/bahdanau-relaxed-gemm.wasm missing (scripts/build --wasm)"
cmp -s web/dist/bahdanau-relaxed-gemm.wasm build/wasm-simd/src/wasm/bahdanau-relaxed-gemm.wasm ||
  bad "web/dist/bahdanau-relaxed-gemm.wasm differs from the build's (run scripts/build --wasm)"
n=$(wasm-objdump -d web/dist/bahdanau-relaxed-gemm.wasm | grep -cE 'f32x4\.relaxed_(madd|fma)' || true)
muls=$(wasm-objdump -d web/dist/bahdanau-relaxed-gemm.wasm | grep -cE 'f32x4\.mul' || true)
echo "  fused multiply-adds: $n, plain f32x4.mul: $muls"
[ "$n" -eq 17 ] || bad "bahdanau-relaxed-gemm.wasm has $n relaxed multiply-adds, expected 17"
[ "$muls" -eq 0 ] || bad "bahdanau-relaxed-gemm.wasm multiplies $muls times without fusing"
grep -q ':bl_f32_train_gemm_fused__wasmrelaxed' build/wasm-simd/src/wasm/bahdanau-simd.js.symbols ||
  bad "the SIMD engine does not link bl_f32_train_gemm_fused__wasmrelaxed"

echo "== bahdanau-scalar.wasm: SIMD instructions (expect none)"
any='v128|[if](8x16|16x8|32x4|64x2)\.'
n=$(wasm-objdump -d web/dist/bahdanau-scalar.wasm | grep -cE "$any" || true)
echo "  lines matching /$any/: $n"
[ "$n" -eq 0 ] || bad "scalar engine holds $n SIMD instructions: $(simd_counts web/dist/bahdanau-scalar.wasm "$any" build/wasm-scalar/src/wasm/bahdanau-scalar.js.symbols | head -5 | tr '\n' ' ')"
if grep -qE '__wasm(simd|relaxed)' build/wasm-scalar/src/wasm/bahdanau-scalar.js.symbols; then
  bad "scalar engine links a *__wasmsimd or *__wasmrelaxed kernel"
fi

[ $fail -eq 0 ] && echo "check_simd: OK"
exit $fail
