// The door of src/node/signatures/: Web Bot Auth signatures (RFC 9421) of logged requests verified offline
// against the keys their agents publish. Loaded by the package's Node entry; the command line reads no
// signature headers yet.
export { SignatureKeys, WEB_BOT_AUTH_TAG, signedRequestOf, verifySignedRequest } from './signatures.js';
export type { SignatureCheck, SignatureVerdict, SignedRequestFields, SigningAgent, SigningKey } from './signatures.js';
