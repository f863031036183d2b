// The door of src/core/pack/: the robots.txt pack's format (layout.ts: header, index, data area), its reader
// (RobotsPack, over any storage: bytes in memory, a file read in pages) and the compile of one body for every
// group (packBody). src/node/pack-build/ writes pack files and src/node/pack/ opens them through this file.
export { RobotsPack, ALL_ALLOWED, ALL_DISALLOWED, bytesStorage, type PackStorage, type PackCapture, type PackOpenOptions, type AgentBlobs } from './pack.js';
export { packBody } from './compile.js';
export { BLOB_BYTES, BODY_BYTES, CAPTURE_BYTES, EFFECT_ALLOW_ALL, EFFECT_DISALLOW_ALL, EFFECT_RULES, ENGINE_SEMANTICS, FLAG_HOST_KEYS, FLAG_KEY_KINDS, FLAG_PORT_KEYS, FLAG_RFC, FLAG_STORE_KEYS, HEADER_BYTES, keyKindFlag, H_BLOBS, H_BODIES, H_BUCKETS, H_BUILT_AT, H_CAPTURES, H_DATA_CRC, H_FLAGS, H_FORMAT, H_HEADER_CRC, H_INDEX_CRC, H_INDEX_LENGTH, H_INDEX_OFFSET, H_LENGTH, H_MAX_BYTES, H_ORIGINS, H_SEMANTICS, H_TOKENS, ORIGIN_BYTES, PACK_FORMAT, PACK_MAGIC, TOKEN_BYTES, bucketCountFor, crc32, getU64, indexLayout, keyHash, setU64 } from './layout.js';
