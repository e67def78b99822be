// Builds the report app into ../internal/report/assets (committed, embedded
// with go:embed so `go build` needs no Node):
//   app.js           bundled, minified TypeScript (esbuild)
//   app.css          copied
//   index.html.tmpl  copied (the Go side renders it with html/template)
//   licenses/        one file per bundled npm package, plus README.txt
//   SOURCES.sha256   hashes of the sources, checked by a Go test so nobody
//                    commits a source change without rebuilding
import { build } from "esbuild";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "..", "internal", "report", "assets");

// The graph layout worker (src/layoutworker.ts: dagre off the main
// thread), bundled on its own and inlined into app.js as a string, from
// which the app makes a blob: worker (a file:// page cannot load a worker
// script from a file).
const worker = await build({
  entryPoints: [join(here, "src", "layoutworker.ts")],
  bundle: true,
  minify: true,
  format: "iife",
  target: ["es2020"],
  legalComments: "none",
  metafile: true,
  write: false,
});

const result = await build({
  define: { __LAYOUT_WORKER__: JSON.stringify(worker.outputFiles[0].text) },
  entryPoints: [join(here, "src", "main.ts")],
  bundle: true,
  minify: true,
  format: "iife",
  target: ["es2020"],
  legalComments: "none", // licences are shipped as files instead
  metafile: true,
  write: false,
  outfile: join(out, "app.js"),
});

rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, "licenses"), { recursive: true });
for (const f of result.outputFiles) writeFileSync(f.path, f.contents);
copyFileSync(join(here, "src", "app.css"), join(out, "app.css"));
copyFileSync(join(here, "src", "index.html.tmpl"), join(out, "index.html.tmpl"));

// Licences of every npm package that ended up in the bundle.
const pkgs = new Map();
for (const input of [...Object.keys(result.metafile.inputs), ...Object.keys(worker.metafile.inputs)]) {
  const m = input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//);
  if (m) pkgs.set(m[1], join(here, "node_modules", m[1]));
}
// A bundled package's prebuilt dist may inline its own dependencies
// (dagre's inlines graphlib): their licences apply too.
for (const [, dir] of [...pkgs]) {
  const deps = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).dependencies || {};
  for (const d of Object.keys(deps)) {
    const p = join(here, "node_modules", d);
    if (existsSync(p)) pkgs.set(d, p);
  }
}
const lines = ["The trtperf report app (assets/app.js, assets/app.css) is trtperf's own code, under trtperf's MIT licence (LICENSE at the repository root)."];
if (pkgs.size === 0) {
  lines.push("It bundles no third-party libraries, so no third-party licences apply.");
} else {
  lines.push("assets/app.js also bundles these libraries, each under its own licence (file beside this one):");
}
for (const [name, dir] of [...pkgs].sort()) {
  const pj = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const lic = readdirSync(dir).find((f) => /^(licen[cs]e|copying)/i.test(f));
  if (!lic) throw new Error(`bundled package ${name} ships no licence file; add it by hand or drop the package`);
  const file = name.replace("/", "__") + ".txt";
  copyFileSync(join(dir, lic), join(out, "licenses", file));
  lines.push(`${name}@${pj.version} (${pj.license}): ${file}`);
}
writeFileSync(join(out, "licenses", "README.txt"), lines.join("\n") + "\n");

// Source hashes, sha256sum format, paths relative to web/, sorted.
function walk(dir) {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}
const sources = ["package.json", "package-lock.json", "tsconfig.json", "build.mjs"].map((f) => join(here, f)).concat(walk(join(here, "src")));
const listing = sources
  .map((p) => relative(here, p).split(sep).join("/"))
  .sort()
  .map((rel) => `${createHash("sha256").update(readFileSync(join(here, rel))).digest("hex")}  ${rel}\n`)
  .join("");
writeFileSync(join(out, "SOURCES.sha256"), listing);
console.log(`built ${relative(process.cwd(), out)}: app.js ${(result.outputFiles[0].contents.length / 1024).toFixed(1)} KiB, ${pkgs.size} bundled packages`);
if (!existsSync(join(out, "app.js"))) throw new Error("app.js was not written");
