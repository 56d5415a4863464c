;; The int8 products' inner loop in relaxed SIMD, for gemv-wasmrelaxed.cpp.
;;
;; Why a hand-written module: Emscripten 3.1.6's clang (LLVM 14) has no builtin for
;; i32x4.relaxed_dot_i8x16_i7x16_add_s, and the engines that run relaxed SIMD are not all the
;; engines that run our SIMD build. So the loop lives here, is assembled by wabt's wat2wasm
;; (src/wasm/CMakeLists.txt), and is loaded only where WebAssembly.validate() accepts it
;; (web/lib/relaxed.js). It imports the engine's memory, and web/lib puts `dots` into the
;; engine's function table, so the C++ side calls it like any function pointer.
;;
;; dots(W, ld, rows, cols, uh, ul, out), rows a multiple of 4, cols a multiple of 16:
;;   for each block of 4 rows r..r+3, 8 i32 at out + 32 * (r / 4):
;;     [0..4)  hi[i] = sum_{k < cols} W[(r+i)*ld + k] * uh[k]
;;     [4..8)  lo[i] = sum_{k < cols} W[(r+i)*ld + k] * ul[k]
;;   W: int8; uh, ul: bytes in [0, 127].
;;
;; relaxed_dot_i8x16_i7x16_add_s(a, b, c) is deterministic when b's bytes are in [0, 127]:
;; every engine then computes c + the exact sums of 4 products a * b per lane (where the CPU has
;; a byte dot product, x86 VNNI's vpdpbusd or ARM's sdot, one instruction; else pmaddubsw, whose
;; i16 pair sums of at most 2 * 128 * 127 = 32512 never saturate, then pmaddwd and an add). The caller keeps the i32 sums exact (cols <= 2048).
;; Per 16 weights and row: one load and two dot-adds, against the plain SIMD loop's two widening
;; loads, two i32x4.dot_i16x8_s and two adds.
(module
  (import "env" "memory" (memory 0))
  (func (export "dots")
    (param $W i32) (param $ld i32) (param $rows i32) (param $cols i32)
    (param $uh i32) (param $ul i32) (param $out i32)
    (local $r i32) (local $k i32)
    (local $p0 i32) (local $p1 i32) (local $p2 i32) (local $p3 i32)
    (local $h0 v128) (local $h1 v128) (local $h2 v128) (local $h3 v128)
    (local $l0 v128) (local $l1 v128) (local $l2 v128) (local $l3 v128)
    (local $xh v128) (local $xl v128) (local $w v128)
    (local $ab v128) (local $cd v128)
    (block $rows_done
      (loop $each_block
        (br_if $rows_done (i32.ge_u (local.get $r) (local.get $rows)))
        (local.set $p0 (i32.add (local.get $W) (i32.mul (local.get $r) (local.get $ld))))
        (local.set $p1 (i32.add (local.get $p0) (local.get $ld)))
        (local.set $p2 (i32.add (local.get $p1) (local.get $ld)))
        (local.set $p3 (i32.add (local.get $p2) (local.get $ld)))
        (local.set $h0 (v128.const i32x4 0 0 0 0))
        (local.set $h1 (v128.const i32x4 0 0 0 0))
        (local.set $h2 (v128.const i32x4 0 0 0 0))
        (local.set $h3 (v128.const i32x4 0 0 0 0))
        (local.set $l0 (v128.const i32x4 0 0 0 0))
        (local.set $l1 (v128.const i32x4 0 0 0 0))
        (local.set $l2 (v128.const i32x4 0 0 0 0))
        (local.set $l3 (v128.const i32x4 0 0 0 0))
        (local.set $k (i32.const 0))
        (block $cols_done
          (loop $each_16
            (br_if $cols_done (i32.ge_u (local.get $k) (local.get $cols)))
            (local.set $xh (v128.load (i32.add (local.get $uh) (local.get $k))))
            (local.set $xl (v128.load (i32.add (local.get $ul) (local.get $k))))
            (local.set $w (v128.load (i32.add (local.get $p0) (local.get $k))))
            (local.set $h0 (i32x4.dot_i8x16_i7x16_add_s (local.get $w) (local.get $xh) (local.get $h0)))
            (local.set $l0 (i32x4.dot_i8x16_i7x16_add_s (local.get $w) (local.get $xl) (local.get $l0)))
            (local.set $w (v128.load (i32.add (local.get $p1) (local.get $k))))
            (local.set $h1 (i32x4.dot_i8x16_i7x16_add_s (local.get $w) (local.get $xh) (local.get $h1)))
            (local.set $l1 (i32x4.dot_i8x16_i7x16_add_s (local.get $w) (local.get $xl) (local.get $l1)))
            (local.set $w (v128.load (i32.add (local.get $p2) (local.get $k))))
            (local.set $h2 (i32x4.dot_i8x16_i7x16_add_s (local.get $w) (local.get $xh) (local.get $h2)))
            (local.set $l2 (i32x4.dot_i8x16_i7x16_add_s (local.get $w) (local.get $xl) (local.get $l2)))
            (local.set $w (v128.load (i32.add (local.get $p3) (local.get $k))))
            (local.set $h3 (i32x4.dot_i8x16_i7x16_add_s (local.get $w) (local.get $xh) (local.get $h3)))
            (local.set $l3 (i32x4.dot_i8x16_i7x16_add_s (local.get $w) (local.get $xl) (local.get $l3)))
            (local.set $k (i32.add (local.get $k) (i32.const 16)))
            (br $each_16)))
        ;; {sum h0, sum h1, sum h2, sum h3}: one transpose-and-add (math-wasmsimd.h's hsum4).
        (local.set $ab (i32x4.add
          (i8x16.shuffle 0 1 2 3 16 17 18 19 4 5 6 7 20 21 22 23 (local.get $h0) (local.get $h1))
          (i8x16.shuffle 8 9 10 11 24 25 26 27 12 13 14 15 28 29 30 31 (local.get $h0) (local.get $h1))))
        (local.set $cd (i32x4.add
          (i8x16.shuffle 0 1 2 3 16 17 18 19 4 5 6 7 20 21 22 23 (local.get $h2) (local.get $h3))
          (i8x16.shuffle 8 9 10 11 24 25 26 27 12 13 14 15 28 29 30 31 (local.get $h2) (local.get $h3))))
        (v128.store (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 3)))
          (i32x4.add
            (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $ab) (local.get $cd))
            (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $ab) (local.get $cd))))
        (local.set $ab (i32x4.add
          (i8x16.shuffle 0 1 2 3 16 17 18 19 4 5 6 7 20 21 22 23 (local.get $l0) (local.get $l1))
          (i8x16.shuffle 8 9 10 11 24 25 26 27 12 13 14 15 28 29 30 31 (local.get $l0) (local.get $l1))))
        (local.set $cd (i32x4.add
          (i8x16.shuffle 0 1 2 3 16 17 18 19 4 5 6 7 20 21 22 23 (local.get $l2) (local.get $l3))
          (i8x16.shuffle 8 9 10 11 24 25 26 27 12 13 14 15 28 29 30 31 (local.get $l2) (local.get $l3))))
        (v128.store offset=16 (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 3)))
          (i32x4.add
            (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $ab) (local.get $cd))
            (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $ab) (local.get $cd))))
        (local.set $r (i32.add (local.get $r) (i32.const 4)))
        (br $each_block)))))
