/**
 * The plugin's HTTP routes, read from the file tree (src/api/**\/route.ts) and the methods each file exports, so a sweep
 * over "every admin route" cannot forget one that is added later: a new route.ts is a new row here.
 */
import fs from "node:fs"
import path from "node:path"
import { REPO_ROOT } from "../../integration-tests/helpers/paths"

export interface RouteFile {
  /** URL template as Medusa serves it: `[id]` segments become `:id`. */
  template: string
  methods: string[]
  file: string
}

const METHOD = /^export\s+(?:const|async\s+function|function)\s+(GET|POST|PUT|PATCH|DELETE)\b/gm

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name)
    return e.isDirectory() ? walk(p) : e.name === "route.ts" ? [p] : []
  })
}

/** Every route.ts under src/api/<under>, with its URL template and exported methods. */
export function routeFiles(under: string): RouteFile[] {
  const apiDir = path.join(REPO_ROOT, "src", "api")
  return walk(path.join(apiDir, under))
    .sort()
    .map((file) => {
      const rel = path.relative(apiDir, path.dirname(file)).split(path.sep)
      const template = "/" + rel.map((s) => s.replace(/^\[(.+)\]$/, ":$1")).join("/")
      const methods = [...fs.readFileSync(file, "utf8").matchAll(METHOD)].map((m) => m[1])
      return { template, methods, file: path.relative(REPO_ROOT, file) }
    })
}

/** Fills `:param` segments of a template (every param gets `value` unless `values` names it). */
export function fillTemplate(template: string, value: string, values: Record<string, string> = {}): string {
  return template.replace(/:([A-Za-z_]+)/g, (_, name: string) => encodeURIComponent(values[name] ?? value))
}
