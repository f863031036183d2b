;; The code cache's seal (scripts/cli-launcher.cjs): a 256-bit hash, four 64-bit lanes, of the `length` bytes of
;; memory from `start` (any address: loads need no alignment), its last word completed by the zero bytes the
;; caller puts after them, and the length itself mixed in; written as four little-endian u64 at `out`. WebAssembly, so that the launcher loads no
;; builtin for it (node:crypto cost 6-12 ms of every command's start) and hashes the files where it read them:
;; one pass over the bundle and the cache, about 1 ms a MiB before the optimising compiler. Not a cryptographic
;; hash: it tells a cache made for another bundle, or a damaged one, from the right one; whoever can write
;; dist/ needs no collision. scripts/bundle-cli.mjs assembles it with binaryen into the launcher it copies to
;; dist/src/bin/.
(module
  (memory (export "memory") 1)
  (func (export "hash") (param $start i32) (param $length i32) (param $out i32)
    (local $at i32) (local $end i32) (local $word i64)
    (local $a i64) (local $b i64) (local $c i64) (local $d i64)
    (local.set $a (i64.xor (i64.const 0x243F6A8885A308D3) (i64.extend_i32_u (local.get $length))))
    (local.set $b (i64.const 0x13198A2E03707344))
    (local.set $c (i64.const 0xA4093822299F31D0))
    (local.set $d (i64.const 0x082EFA98EC4E6C89))
    (local.set $at (local.get $start))
    (local.set $end (i32.add (local.get $start) (i32.and (i32.add (local.get $length) (i32.const 7)) (i32.const -8))))
    (block $done
      (loop $words
        (br_if $done (i32.ge_u (local.get $at) (local.get $end)))
        (local.set $word (i64.load (local.get $at)))
        ;; each lane: the word mixed in by a multiply with an odd constant, then a shift back (both invertible)
        (local.set $a (i64.mul (i64.xor (local.get $a) (local.get $word)) (i64.const 0x9E3779B97F4A7C15)))
        (local.set $a (i64.xor (local.get $a) (i64.shr_u (local.get $a) (i64.const 29))))
        (local.set $b (i64.mul (i64.xor (local.get $b) (local.get $word)) (i64.const 0xC2B2AE3D27D4EB4F)))
        (local.set $b (i64.xor (local.get $b) (i64.shr_u (local.get $b) (i64.const 31))))
        (local.set $c (i64.mul (i64.xor (local.get $c) (local.get $word)) (i64.const 0x165667B19E3779F9)))
        (local.set $c (i64.xor (local.get $c) (i64.shr_u (local.get $c) (i64.const 27))))
        (local.set $d (i64.mul (i64.xor (local.get $d) (local.get $word)) (i64.const 0xD6E8FEB86659FD93)))
        (local.set $d (i64.xor (local.get $d) (i64.shr_u (local.get $d) (i64.const 33))))
        (local.set $at (i32.add (local.get $at) (i32.const 8)))
        (br $words)))
    (i64.store offset=0 (local.get $out) (call $final (local.get $a)))
    (i64.store offset=8 (local.get $out) (call $final (local.get $b)))
    (i64.store offset=16 (local.get $out) (call $final (local.get $c)))
    (i64.store offset=24 (local.get $out) (call $final (local.get $d))))
  ;; a last avalanche of a lane: every bit of it reaches every bit of the result
  (func $final (param $h i64) (result i64)
    (local.set $h (i64.mul (i64.xor (local.get $h) (i64.shr_u (local.get $h) (i64.const 32))) (i64.const 0xD6E8FEB86659FD93)))
    (i64.xor (local.get $h) (i64.shr_u (local.get $h) (i64.const 32))))
)
