// Renders extension/icons/pagesieve.svg, the extension's one icon source, to the PNGs the
// manifest and background/toolbar.js name, with resvg (npm @resvg/resvg-js, pinned in
// package.json): usage `node tools/render_icons.mjs OUT_DIR`. The brand at 16, 32, 48 and
// 128 px (the manifest's "icons": the add-on listing and the extensions page) and each state
// of the toolbar button at 16 and 32 px (action.setIcon): off, hide (noise hidden), reader.
// tools/build_extension.py runs it; nothing it writes is committed.
import { Resvg } from "@resvg/resvg-js";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const SOURCE = join(dirname(fileURLToPath(import.meta.url)), "..", "extension", "icons", "pagesieve.svg");

// The rules that replace the source's <style id="state"> for each state ("brand": as drawn).
const STATES = {
  brand: null,
  hide: null,
  off: ".body { fill: #5f6368; } .rim { fill: #9aa0a6; } .lines { display: none; }",
  reader: ".body { fill: #1d4ed8; } .rim { fill: #60a5fa; } .holes { display: none; }",
};
const SIZES = { brand: [16, 32, 48, 128], hide: [16, 32], off: [16, 32], reader: [16, 32] };

export function svgFor(source, state) {
  const rules = STATES[state];
  if (rules === undefined) throw new Error(`unknown state ${state}`);
  if (rules === null) return source;
  const replaced = source.replace(/(<style id="state">)[\s\S]*?(<\/style>)/, `$1${rules}$2`);
  if (replaced === source) throw new Error(`${SOURCE} has no <style id="state"> to replace`);
  return replaced;
}

const out = process.argv[2];
if (!out) {
  process.stderr.write("usage: node tools/render_icons.mjs OUT_DIR\n");
  process.exit(2);
}
mkdirSync(out, { recursive: true });
const source = readFileSync(SOURCE, "utf8");
for (const [state, sizes] of Object.entries(SIZES)) {
  for (const size of sizes) {
    const png = new Resvg(svgFor(source, state), { fitTo: { mode: "width", value: size } }).render().asPng();
    const name = state === "brand" ? `pagesieve-${size}.png` : `${state}-${size}.png`;
    writeFileSync(join(out, name), png);
    process.stdout.write(`${name}\n`);
  }
}
