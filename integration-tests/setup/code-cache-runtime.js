/**
 * Jest's module loader (jest-runtime) with V8's code cache. Every test file gets a fresh module registry, so each file
 * compiles again every module it loads (a spec file that boots Medusa compiles thousands of them). This loader gives
 * V8 the cached data of an earlier compile of the same source: kept in the worker's memory (the next test file in the
 * worker), and written to the OS temp dir when the worker exits (the next worker, tier or run). The module still runs
 * afresh in each file's own context, so isolation is unchanged; only parsing and compiling are skipped. V8 checks the
 * data against the source and its own version and flags, and ignores data that does not fit (then it is made again).
 * The script is made as Jest's own `createScriptFromCode` makes it (copied below, with `cachedData` added).
 * Measured (issue 38, load 9-18, CPU of Jest and its workers): the unit tier 78 s / 73 s with it against 90 s / 83 s
 * without; three integration files in one process 54 s against 61 s. Wired in jest.config.js (`moduleLoader`);
 * `PNE_TEST_CODE_CACHE=off` turns it off, `=memory` keeps nothing on disk.
 */
const crypto = require("node:crypto")
const fs = require("node:fs")
const os = require("node:os")
const path = require("node:path")
const vm = require("node:vm")
const Runtime = require("jest-runtime").default
const { handlePotentialSyntaxError } = require("@jest/transform")
const { invariant } = require("jest-util")

const MODE = process.env.PNE_TEST_CODE_CACHE ?? "disk"
const DIR = path.join(os.tmpdir(), `payneteasy-jest-code-cache-${process.version}-${os.userInfo().uid}`)

const DYNAMIC_IMPORT = /\bimport\s*\(/

/** filename → { hash, script?, data? }: the source's hash, the first script made from it, V8's data for it. */
const cache = new Map()

function sourceHash(source) {
  return crypto.createHash("sha1").update(source).digest("hex")
}
const diskPath = (filename) => path.join(DIR, `${sourceHash(filename)}.bin`)

/** Cached data on disk for this source, if any (the file starts with the source's hash: 40 bytes). */
function fromDisk(filename, hash) {
  if (MODE !== "disk") return undefined
  try {
    const buf = fs.readFileSync(diskPath(filename))
    return buf.subarray(0, 40).toString() === hash ? buf.subarray(40) : undefined
  } catch {
    return undefined
  }
}

if (MODE === "disk") {
  // On exit (jest-worker ends its children with process.exit): the data of every script compiled here without data
  // from disk, made now so that it holds the functions compiled while the tests ran.
  process.on("exit", () => {
    try {
      fs.mkdirSync(DIR, { recursive: true })
      for (const [filename, entry] of cache) {
        if (!entry.script || entry.fromDisk) continue
        const tmp = `${diskPath(filename)}.${process.pid}`
        fs.writeFileSync(tmp, Buffer.concat([Buffer.from(entry.hash), entry.script.createCachedData()]))
        fs.renameSync(tmp, diskPath(filename))
      }
    } catch {
      // a cache that cannot be written only costs time on the next run
    }
  })
}

class CodeCacheRuntime extends Runtime {
  createScriptFromCode(scriptSource, filename) {
    // A function V8 takes from cached data loses the script's dynamic-import callback ("A dynamic import callback was
    // not specified", Node 20): a module that calls import() is always compiled afresh.
    if (DYNAMIC_IMPORT.test(scriptSource)) return super.createScriptFromCode(scriptSource, filename)
    const source = this.wrapCodeInModuleWrapper(scriptSource)
    const hash = sourceHash(source)
    let entry = cache.get(filename)
    if (!entry || entry.hash !== hash) {
      const data = fromDisk(filename, hash)
      entry = { hash, data, fromDisk: Boolean(data) }
      cache.set(filename, entry)
    } else if (!entry.data && entry.script) {
      // The first script in this worker has run by now: its data holds the functions compiled while it ran.
      entry.data = entry.script.createCachedData()
    }
    const scriptFilename = this._resolver.isCoreModule(filename) ? `jest-nodejs-core-${filename}` : filename
    let script
    try {
      script = new vm.Script(source, {
        columnOffset: this._fileTransforms.get(filename)?.wrapperLength,
        displayErrors: true,
        filename: scriptFilename,
        cachedData: entry.data,
        importModuleDynamically: async (specifier) => {
          const context = this._environment.getVmContext?.()
          invariant(context, "Test environment has been torn down")
          const module = await this.resolveModule(specifier, scriptFilename, context)
          return this.linkAndEvaluateModule(module)
        },
      })
    } catch (e) {
      throw handlePotentialSyntaxError(e)
    }
    if (script.cachedDataRejected) Object.assign(entry, { data: undefined, fromDisk: false, script })
    else if (!entry.script) entry.script = script
    return script
  }
}

module.exports = MODE === "off" ? Runtime : CodeCacheRuntime
