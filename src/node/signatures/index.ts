// The door of src/node/signatures/: Web Bot Auth signatures (RFC 9421) of logged requests verified offline
// against the keys their agents publish. Loaded by the package's Node entry, and by robotstxt audit only with
// --signature-keys (the audit itself takes a SignedRequestJudge and imports only its types).
export { KEY_HISTORY_FOLDER, SignatureKeys, SignedRequestJudge, WEB_BOT_AUTH_TAG, signatureAgentOrigin, signedRequestOf, signingAgentsOf, verifySignedRequest } from './signatures.js';
export type { SignatureCheck, SignatureVerdict, SignedRequestFields, SigningAgent, SigningKey } from './signatures.js';
