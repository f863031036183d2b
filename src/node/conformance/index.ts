// The door of src/node/conformance/: Another implementation against the reference: runners, the suite run, and the report.
// Modules outside this folder import it only through this file (test/package.test.ts holds that).
export { casesFromRobotsDir, compareAnswers, prepareCases, referenceAnswers } from './conformance.js';
export type { ConformanceCase, ConformanceClass, ConformanceLabel } from './conformance.js';
export { printable, reportHtml, reportJson, reportText } from './report.js';
export { batchImplementation, commandImplementation, commandName, contractSentence, moduleImplementation, splitCommand, stopAllChildren } from './runners.js';
export type { ConformanceContract, Implementation } from './runners.js';
