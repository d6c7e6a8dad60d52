// Shared by the web app's Node suites (issue 45 item 4): the app's modules are loaded as they
// are served, from Sources/TandemServer/Resources/app, after giving Node 18 the WebCrypto
// global the browser has (Node 20 has it already).
import { webcrypto } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

globalThis.crypto ??= webcrypto;

const root = new URL('../../', import.meta.url);

/** One of the app's modules, by file name. */
export const app = (name) => import(new URL(`Sources/TandemServer/Resources/app/${name}`, root).href);

/** A vector file of Tests/TestSupport/Vectors, parsed. */
export const vectors = (name) =>
  JSON.parse(readFileSync(fileURLToPath(new URL(`Tests/TestSupport/Vectors/${name}`, root)), 'utf8'));
