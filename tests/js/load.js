// Runs classic scripts of extension/ (platform.js, channels.js, content/*.js) in a fresh V8
// context, as a browser runs them in one page: they share its globalThis. Only scripts that touch
// no DOM while they load are run this way; what they need of the browser is handed in.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import vm from "node:vm";

export const EXTENSION = fileURLToPath(new URL("../../extension/", import.meta.url));

// files: paths under extension/; globals: names the scripts find on globalThis (chrome, ...).
// Returns the context's globalThis.
export function load(files, globals = {}) {
  const context = vm.createContext({ URL, ...globals });
  for (const file of files) {
    vm.runInContext(readFileSync(EXTENSION + file, "utf8"), context, { filename: "extension/" + file });
  }
  return context;
}

// A value made in the scripts' context as one of this context (deepStrictEqual compares
// prototypes, and each context has its own Object and Array).
export const plain = (value) => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));
