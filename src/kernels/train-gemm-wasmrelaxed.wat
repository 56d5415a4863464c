;; The training product's tiles with relaxed SIMD's fused multiply-add, for
;; train-gemm-wasmrelaxed.cpp: the blocking of train-gemm-wasmsimd.cpp, where each
;; f32x4.mul then f32x4.add becomes one f32x4.relaxed_madd.
;;
;; Why: the small model's training step is about 70% this product, and wasm SIMD's mul then add
;; is two instructions where the CPU has one. On a 2-core AMD EPYC (Zen 3), the 4 x 8 tile alone
;; (K = 64, in cache) ran at 14.1 GMAC/s with mul then add and 21.3 with relaxed_madd in Node 20's
;; optimizing compiler; what a whole training step gains is scripts/bench --only train's
;; (docs/training-core.md, "Fused multiply-add").
;;
;; Why a hand-written module: Emscripten 3.1.6's clang (LLVM 14) emits only the relaxed SIMD
;; proposal's early opcodes, which engines no longer accept (qs8-wasmrelaxed.wat says the same
;; of the int8 loop). It is assembled by wabt's wat2wasm (src/wasm/CMakeLists.txt) and
;; installed by web/lib/relaxed.js for trainers only, where WebAssembly.validate() accepts it.
;;
;; relaxed_madd(a, b, c) may round once (fused) or twice, by engine and CPU. The C++ side
;; installs it only where it is fused, checked against the scalar twin
;; (train-gemm-scalar.cpp, bl_f32_train_gemm_fused__scalar, bl_fma_f32), so that training with it
;; gives the same bits wherever it runs.
;;
;; gemm(M, N, K, A, a_row, a_col, B, ldb, C, ldc), N a multiple of 4, A, B, C byte addresses,
;; the strides in floats:
;;   C[m*ldc + j] = fma(A[m*a_row + k*a_col], B[k*ldb + j], C[m*ldc + j]) for k = 0 .. K-1,
;;   for m < M, j < N; nothing else is written.
;; Rows in blocks of 4 (tiles of 4 x 8, then 4 x 4), then the rows left over one at a time
;; (1 x 16, then 1 x 4). Each element's operations are the same whatever tile computes it.
;; Why no larger tile: in Node 20's optimizing compiler, tiles of 10 or 12 accumulators (5 x 8,
;; 6 x 8, 4 x 12, 3 x 16) ran at half the speed of this 4 x 8, which reaches 86% of a Zen 4
;; core's 128-bit FMA peak (docs/training-core.md, "Near the 128-bit peak").
(module
  (import "env" "memory" (memory 0))
  (func (export "gemm")
    (param $M i32) (param $N i32) (param $K i32) (param $A i32) (param $a_row i32)
    (param $a_col i32) (param $B i32) (param $ldb i32) (param $C i32) (param $ldc i32)
    (local $m i32) (local $j i32) (local $k i32)
    (local $pa i32) (local $pb i32) (local $pc i32) (local $pk i32)
    (local $p0 i32) (local $p1 i32) (local $p2 i32) (local $p3 i32)
    (local $q0 i32) (local $q1 i32) (local $q2 i32) (local $q3 i32)
    (local $a v128) (local $b0 v128) (local $b1 v128) (local $b2 v128) (local $b3 v128)
    (local $c00 v128) (local $c01 v128) (local $c10 v128) (local $c11 v128) (local $c20 v128) (local $c21 v128) (local $c30 v128) (local $c31 v128) (local $c02 v128) (local $c03 v128)
    ;; strides in bytes
    (local.set $a_row (i32.shl (local.get $a_row) (i32.const 2)))
    (local.set $a_col (i32.shl (local.get $a_col) (i32.const 2)))
    (local.set $ldb (i32.shl (local.get $ldb) (i32.const 2)))
    (local.set $ldc (i32.shl (local.get $ldc) (i32.const 2)))
    ;; rows in blocks of 4: tiles of 4 x 8, then one of 4 x 4 where N mod 8 = 4
    (block $rows4_done
      (loop $each_rows4
        (br_if $rows4_done (i32.gt_u (i32.add (local.get $m) (i32.const 4)) (local.get $M)))
        (local.set $pa (i32.add (local.get $A) (i32.mul (local.get $m) (local.get $a_row))))
        (local.set $j (i32.const 0))
        (block $j8_done
          (loop $each_j8
            (br_if $j8_done (i32.gt_u (i32.add (local.get $j) (i32.const 8)) (local.get $N)))
            (local.set $pb (i32.add (local.get $B) (i32.shl (local.get $j) (i32.const 2))))
            (local.set $pc (i32.add (i32.add (local.get $C) (i32.mul (local.get $m) (local.get $ldc)))
                                    (i32.shl (local.get $j) (i32.const 2))))
            ;; 4 x 8
            (local.set $p0 (local.get $pa))
            (local.set $q0 (local.get $pc))
            (local.set $p1 (i32.add (local.get $p0) (local.get $a_row)))
            (local.set $q1 (i32.add (local.get $q0) (local.get $ldc)))
            (local.set $p2 (i32.add (local.get $p1) (local.get $a_row)))
            (local.set $q2 (i32.add (local.get $q1) (local.get $ldc)))
            (local.set $p3 (i32.add (local.get $p2) (local.get $a_row)))
            (local.set $q3 (i32.add (local.get $q2) (local.get $ldc)))
            (local.set $c00 (v128.load offset=0 (local.get $q0)))
            (local.set $c01 (v128.load offset=16 (local.get $q0)))
            (local.set $c10 (v128.load offset=0 (local.get $q1)))
            (local.set $c11 (v128.load offset=16 (local.get $q1)))
            (local.set $c20 (v128.load offset=0 (local.get $q2)))
            (local.set $c21 (v128.load offset=16 (local.get $q2)))
            (local.set $c30 (v128.load offset=0 (local.get $q3)))
            (local.set $c31 (v128.load offset=16 (local.get $q3)))
            (local.set $pk (local.get $pb))
            (local.set $k (local.get $K))
            (block $k_done
              (loop $each_k
                (br_if $k_done (i32.eqz (local.get $k)))
                (local.set $b0 (v128.load offset=0 (local.get $pk)))
                (local.set $b1 (v128.load offset=16 (local.get $pk)))
                (local.set $a (v128.load32_splat (local.get $p0)))
                (local.set $c00 (f32x4.relaxed_madd (local.get $a) (local.get $b0) (local.get $c00)))
                (local.set $c01 (f32x4.relaxed_madd (local.get $a) (local.get $b1) (local.get $c01)))
                (local.set $a (v128.load32_splat (local.get $p1)))
                (local.set $c10 (f32x4.relaxed_madd (local.get $a) (local.get $b0) (local.get $c10)))
                (local.set $c11 (f32x4.relaxed_madd (local.get $a) (local.get $b1) (local.get $c11)))
                (local.set $a (v128.load32_splat (local.get $p2)))
                (local.set $c20 (f32x4.relaxed_madd (local.get $a) (local.get $b0) (local.get $c20)))
                (local.set $c21 (f32x4.relaxed_madd (local.get $a) (local.get $b1) (local.get $c21)))
                (local.set $a (v128.load32_splat (local.get $p3)))
                (local.set $c30 (f32x4.relaxed_madd (local.get $a) (local.get $b0) (local.get $c30)))
                (local.set $c31 (f32x4.relaxed_madd (local.get $a) (local.get $b1) (local.get $c31)))
                (local.set $p0 (i32.add (local.get $p0) (local.get $a_col)))
                (local.set $p1 (i32.add (local.get $p1) (local.get $a_col)))
                (local.set $p2 (i32.add (local.get $p2) (local.get $a_col)))
                (local.set $p3 (i32.add (local.get $p3) (local.get $a_col)))
                (local.set $pk (i32.add (local.get $pk) (local.get $ldb)))
                (local.set $k (i32.sub (local.get $k) (i32.const 1)))
                (br $each_k)))
            (v128.store offset=0 (local.get $q0) (local.get $c00))
            (v128.store offset=16 (local.get $q0) (local.get $c01))
            (v128.store offset=0 (local.get $q1) (local.get $c10))
            (v128.store offset=16 (local.get $q1) (local.get $c11))
            (v128.store offset=0 (local.get $q2) (local.get $c20))
            (v128.store offset=16 (local.get $q2) (local.get $c21))
            (v128.store offset=0 (local.get $q3) (local.get $c30))
            (v128.store offset=16 (local.get $q3) (local.get $c31))
            (local.set $j (i32.add (local.get $j) (i32.const 8)))
            (br $each_j8)))
        (if (i32.lt_u (local.get $j) (local.get $N))
          (then
            (local.set $pb (i32.add (local.get $B) (i32.shl (local.get $j) (i32.const 2))))
            (local.set $pc (i32.add (i32.add (local.get $C) (i32.mul (local.get $m) (local.get $ldc)))
                                    (i32.shl (local.get $j) (i32.const 2))))
            ;; 4 x 4
            (local.set $p0 (local.get $pa))
            (local.set $q0 (local.get $pc))
            (local.set $p1 (i32.add (local.get $p0) (local.get $a_row)))
            (local.set $q1 (i32.add (local.get $q0) (local.get $ldc)))
            (local.set $p2 (i32.add (local.get $p1) (local.get $a_row)))
            (local.set $q2 (i32.add (local.get $q1) (local.get $ldc)))
            (local.set $p3 (i32.add (local.get $p2) (local.get $a_row)))
            (local.set $q3 (i32.add (local.get $q2) (local.get $ldc)))
            (local.set $c00 (v128.load offset=0 (local.get $q0)))
            (local.set $c10 (v128.load offset=0 (local.get $q1)))
            (local.set $c20 (v128.load offset=0 (local.get $q2)))
            (local.set $c30 (v128.load offset=0 (local.get $q3)))
            (local.set $pk (local.get $pb))
            (local.set $k (local.get $K))
            (block $k_done
              (loop $each_k
                (br_if $k_done (i32.eqz (local.get $k)))
                (local.set $b0 (v128.load offset=0 (local.get $pk)))
                (local.set $a (v128.load32_splat (local.get $p0)))
                (local.set $c00 (f32x4.relaxed_madd (local.get $a) (local.get $b0) (local.get $c00)))
                (local.set $a (v128.load32_splat (local.get $p1)))
                (local.set $c10 (f32x4.relaxed_madd (local.get $a) (local.get $b0) (local.get $c10)))
                (local.set $a (v128.load32_splat (local.get $p2)))
                (local.set $c20 (f32x4.relaxed_madd (local.get $a) (local.get $b0) (local.get $c20)))
                (local.set $a (v128.load32_splat (local.get $p3)))
                (local.set $c30 (f32x4.relaxed_madd (local.get $a) (local.get $b0) (local.get $c30)))
                (local.set $p0 (i32.add (local.get $p0) (local.get $a_col)))
                (local.set $p1 (i32.add (local.get $p1) (local.get $a_col)))
                (local.set $p2 (i32.add (local.get $p2) (local.get $a_col)))
                (local.set $p3 (i32.add (local.get $p3) (local.get $a_col)))
                (local.set $pk (i32.add (local.get $pk) (local.get $ldb)))
                (local.set $k (i32.sub (local.get $k) (i32.const 1)))
                (br $each_k)))
            (v128.store offset=0 (local.get $q0) (local.get $c00))
            (v128.store offset=0 (local.get $q1) (local.get $c10))
            (v128.store offset=0 (local.get $q2) (local.get $c20))
            (v128.store offset=0 (local.get $q3) (local.get $c30))))
        (local.set $m (i32.add (local.get $m) (i32.const 4)))
        (br $each_rows4)))
    ;; the rows left over, one at a time: tiles of 1 x 16, then of 1 x 4
    (block $rows1_done
      (loop $each_row
        (br_if $rows1_done (i32.ge_u (local.get $m) (local.get $M)))
        (local.set $pa (i32.add (local.get $A) (i32.mul (local.get $m) (local.get $a_row))))
        (local.set $j (i32.const 0))
        (block $j16_done
          (loop $each_j16
            (br_if $j16_done (i32.gt_u (i32.add (local.get $j) (i32.const 16)) (local.get $N)))
            (local.set $pb (i32.add (local.get $B) (i32.shl (local.get $j) (i32.const 2))))
            (local.set $pc (i32.add (i32.add (local.get $C) (i32.mul (local.get $m) (local.get $ldc)))
                                    (i32.shl (local.get $j) (i32.const 2))))
            ;; 1 x 16
            (local.set $p0 (local.get $pa))
            (local.set $q0 (local.get $pc))
            (local.set $c00 (v128.load offset=0 (local.get $q0)))
            (local.set $c01 (v128.load offset=16 (local.get $q0)))
            (local.set $c02 (v128.load offset=32 (local.get $q0)))
            (local.set $c03 (v128.load offset=48 (local.get $q0)))
            (local.set $pk (local.get $pb))
            (local.set $k (local.get $K))
            (block $k_done
              (loop $each_k
                (br_if $k_done (i32.eqz (local.get $k)))
                (local.set $b0 (v128.load offset=0 (local.get $pk)))
                (local.set $b1 (v128.load offset=16 (local.get $pk)))
                (local.set $b2 (v128.load offset=32 (local.get $pk)))
                (local.set $b3 (v128.load offset=48 (local.get $pk)))
                (local.set $a (v128.load32_splat (local.get $p0)))
                (local.set $c00 (f32x4.relaxed_madd (local.get $a) (local.get $b0) (local.get $c00)))
                (local.set $c01 (f32x4.relaxed_madd (local.get $a) (local.get $b1) (local.get $c01)))
                (local.set $c02 (f32x4.relaxed_madd (local.get $a) (local.get $b2) (local.get $c02)))
                (local.set $c03 (f32x4.relaxed_madd (local.get $a) (local.get $b3) (local.get $c03)))
                (local.set $p0 (i32.add (local.get $p0) (local.get $a_col)))
                (local.set $pk (i32.add (local.get $pk) (local.get $ldb)))
                (local.set $k (i32.sub (local.get $k) (i32.const 1)))
                (br $each_k)))
            (v128.store offset=0 (local.get $q0) (local.get $c00))
            (v128.store offset=16 (local.get $q0) (local.get $c01))
            (v128.store offset=32 (local.get $q0) (local.get $c02))
            (v128.store offset=48 (local.get $q0) (local.get $c03))
            (local.set $j (i32.add (local.get $j) (i32.const 16)))
            (br $each_j16)))
        (block $j4_done
          (loop $each_j4
            (br_if $j4_done (i32.ge_u (local.get $j) (local.get $N)))
            (local.set $pb (i32.add (local.get $B) (i32.shl (local.get $j) (i32.const 2))))
            (local.set $pc (i32.add (i32.add (local.get $C) (i32.mul (local.get $m) (local.get $ldc)))
                                    (i32.shl (local.get $j) (i32.const 2))))
            ;; 1 x 4
            (local.set $p0 (local.get $pa))
            (local.set $q0 (local.get $pc))
            (local.set $c00 (v128.load offset=0 (local.get $q0)))
            (local.set $pk (local.get $pb))
            (local.set $k (local.get $K))
            (block $k_done
              (loop $each_k
                (br_if $k_done (i32.eqz (local.get $k)))
                (local.set $b0 (v128.load offset=0 (local.get $pk)))
                (local.set $a (v128.load32_splat (local.get $p0)))
                (local.set $c00 (f32x4.relaxed_madd (local.get $a) (local.get $b0) (local.get $c00)))
                (local.set $p0 (i32.add (local.get $p0) (local.get $a_col)))
                (local.set $pk (i32.add (local.get $pk) (local.get $ldb)))
                (local.set $k (i32.sub (local.get $k) (i32.const 1)))
                (br $each_k)))
            (v128.store offset=0 (local.get $q0) (local.get $c00))
            (local.set $j (i32.add (local.get $j) (i32.const 4)))
            (br $each_j4)))
        (local.set $m (i32.add (local.get $m) (i32.const 1)))
        (br $each_row)))))
